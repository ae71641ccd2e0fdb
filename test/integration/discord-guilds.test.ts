import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getGuildPrivacy, listSharedGuilds, setShowDiscordGuilds } from "~/models/discord-guilds.server";
import { SHARED_GUILDS_SHOWN } from "~/lib/constants";
import { createBrowserMember } from "../support/auth";
import { createTestDatabase, testEngine, type TestDatabase } from "../support/database";
import { startTestServer, type TestServer } from "../support/server";
import type { Database } from "../../app/infra/db/tables";

/**
 * The Discord servers kept from a Discord sign-in: a profile shows the ones its gamer shares with the
 * viewer only when both turned it on in `/settings/privacy`, and they go with the Discord identity. The models run
 * against a database of their own; the page and the profile through the built server, as plain form posts.
 */

const CDN = "https://cdn.discordapp.example";
const ICON = "a".repeat(32);
const snowflake = () => String(BigInt(`0x${randomBytes(7).toString("hex")}`));

type Guild = { id: string; name: string; icon?: string | null };

/** Gives an account a Discord identity and the servers it is in, as a Discord sign-in leaves them. */
async function linkDiscord(db: Database, userId: string, guilds: readonly Guild[]) {
  const identity = await db
    .insertInto("auth_identities")
    .values({ user_id: userId, provider: "discord", provider_id: snowflake(), identity_data: "{}" })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (guilds.length) {
    await db
      .insertInto("discord_guilds")
      .values(guilds.map((guild) => ({ user_id: userId, guild_id: guild.id, identity_id: identity.id, name: guild.name, icon: guild.icon ?? null })))
      .execute();
  }
  return identity.id;
}

describe(`the shared Discord servers' models (${testEngine})`, () => {
  let database: TestDatabase;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** An account with a profile, its choice, and a Discord identity in these servers. */
  async function gamer({ show = false, guilds = [] as readonly Guild[] } = {}) {
    const id = randomUUID();
    await db().insertInto("auth_users").values({ id, email: `${id}@example.jp`, password_hash: null }).execute();
    await db().insertInto("users").values({ id, display_name: "ゲーマー", show_discord_guilds: show }).execute();
    const identityId = await linkDiscord(db(), id, guilds);
    return { id, identityId };
  }
  const shared = (viewerId: string, profileId: string, cdnUrl = CDN) => listSharedGuilds({ db: db(), viewerId, profileId, cdnUrl });
  const names = async (viewerId: string, profileId: string) => (await shared(viewerId, profileId)).map((guild) => guild.name);

  const [alpha, bravo, charlie, delta] = ["Alpha", "Bravo", "Charlie", "Delta"].map((name) => ({ id: snowflake(), name }));

  it("shows nothing unless both gamers turned it on, and then the same servers both ways", async () => {
    const a = await gamer({ guilds: [alpha!, bravo!] });
    const b = await gamer({ guilds: [alpha!, bravo!] });
    expect(await names(a.id, b.id)).toEqual([]);

    await setShowDiscordGuilds({ db: db(), userId: a.id, show: true });
    expect(await names(a.id, b.id)).toEqual([]);
    expect(await names(b.id, a.id)).toEqual([]);

    await setShowDiscordGuilds({ db: db(), userId: b.id, show: true });
    expect(await names(a.id, b.id)).toEqual(["Alpha", "Bravo"]);
    expect(await names(b.id, a.id)).toEqual(["Alpha", "Bravo"]);

    // Turned off again by either: gone again.
    await setShowDiscordGuilds({ db: db(), userId: a.id, show: false });
    expect(await names(b.id, a.id)).toEqual([]);
  });

  it("lists only the servers both are in, by name, each with its icon on the CDN when it has one", async () => {
    const a = await gamer({ show: true, guilds: [delta!, { ...bravo!, icon: ICON }, alpha!] });
    const b = await gamer({ show: true, guilds: [{ ...bravo!, icon: ICON }, charlie!, { ...delta!, icon: "not-a-hash" }] });
    expect(await shared(a.id, b.id, `${CDN}/`)).toEqual([
      { id: bravo!.id, name: "Bravo", iconUrl: `${CDN}/icons/${bravo!.id}/${ICON}.png?size=64` },
      // An icon that is not an image hash is never put into a URL.
      { id: delta!.id, name: "Delta", iconUrl: null },
    ]);
  });

  it(`lists at most ${SHARED_GUILDS_SHOWN}, the first by name`, async () => {
    const many = Array.from({ length: SHARED_GUILDS_SHOWN + 5 }, (_, index) => ({ id: snowflake(), name: `Guild ${String(index).padStart(2, "0")}` }));
    const a = await gamer({ show: true, guilds: many });
    const b = await gamer({ show: true, guilds: [...many].reverse() });
    expect(await names(a.id, b.id)).toEqual(many.slice(0, SHARED_GUILDS_SHOWN).map((guild) => guild.name));
  });

  it("shows a gamer nothing on their own profile", async () => {
    const a = await gamer({ show: true, guilds: [alpha!] });
    expect(await shared(a.id, a.id)).toEqual([]);
  });

  it("shows nothing between gamers when either blocked the other, or with an account that left", async () => {
    const a = await gamer({ show: true, guilds: [alpha!] });
    const b = await gamer({ show: true, guilds: [alpha!] });
    await db().insertInto("user_blocks").values({ blocker_id: b.id, blocked_id: a.id }).execute();
    expect(await names(a.id, b.id)).toEqual([]);
    expect(await names(b.id, a.id)).toEqual([]);

    const c = await gamer({ show: true, guilds: [alpha!] });
    expect(await names(a.id, c.id)).toEqual(["Alpha"]);
    await db().updateTable("users").set({ deleted_at: new Date() }).where("id", "=", c.id).execute();
    expect(await names(a.id, c.id)).toEqual([]);
    expect(await names(c.id, a.id)).toEqual([]);
  });

  it("says the choice and how many servers are kept, and the servers go with the Discord identity", async () => {
    const a = await gamer({ guilds: [alpha!, bravo!, charlie!] });
    const b = await gamer({ show: true, guilds: [alpha!] });
    expect(await getGuildPrivacy({ db: db(), userId: a.id })).toEqual({ showDiscordGuilds: false, storedGuilds: 3 });
    await setShowDiscordGuilds({ db: db(), userId: a.id, show: true });
    expect(await getGuildPrivacy({ db: db(), userId: a.id })).toEqual({ showDiscordGuilds: true, storedGuilds: 3 });
    expect(await names(b.id, a.id)).toEqual(["Alpha"]);

    // Unlinking Discord deletes the identity: its servers go with it (on delete cascade).
    await db().deleteFrom("auth_identities").where("id", "=", a.identityId).execute();
    expect(await db().selectFrom("discord_guilds").select("guild_id").where("user_id", "=", a.id).execute()).toEqual([]);
    expect(await getGuildPrivacy({ db: db(), userId: a.id })).toEqual({ showDiscordGuilds: true, storedGuilds: 0 });
    expect(await names(b.id, a.id)).toEqual([]);
    // The other gamer's servers stay.
    expect(await getGuildPrivacy({ db: db(), userId: b.id })).toEqual({ showDiscordGuilds: true, storedGuilds: 1 });
  });
});

describe(`/settings/privacy and the profile (${testEngine})`, () => {
  let app: TestServer;
  const db = () => app.database.db;
  beforeAll(async () => {
    // Discord sign-in on (shared servers are shown only then), at a Discord these tests never reach.
    app = await startTestServer({
      seed: false,
      env: { DISCORD_CLIENT_ID: "100000000000000001", DISCORD_CLIENT_SECRET: "unused-secret", DISCORD_URL: "http://127.0.0.1:9", DISCORD_CDN_URL: "http://127.0.0.1:9" },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  type Member = Awaited<ReturnType<typeof createBrowserMember>>;
  /** The page's HTML without the comments React puts between adjacent text parts. */
  const htmlOf = async (response: Response) => {
    expect(response.status).toBe(200);
    return (await response.text()).replace(/<!-- -->/g, "");
  };
  const box = (html: string) => /<input[^>]*name="showDiscordGuilds"[^>]*>/.exec(html)?.[0];
  /** The settings form posted as a browser without JavaScript posts it (a clear box sends nothing). */
  const save = (member: Member, fields: Record<string, string>) =>
    member.page("/settings/privacy", {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    });
  const showing = async (member: Member) =>
    (await db().selectFrom("users").select("show_discord_guilds").where("id", "=", member.id).executeTakeFirstOrThrow()).show_discord_guilds;

  it("starts off, says what is kept, and switches with a plain form POST and a toast", async () => {
    const member = await createBrowserMember(app, "設定テスト");
    const page = await htmlOf(await member.page("/settings/privacy"));
    expect(page).toContain("<title>プライバシー設定");
    expect(page).toContain("共通のDiscordサーバーをプロフィールに表示する");
    expect(box(page)).toBeDefined();
    expect(box(page)).not.toContain("checked");
    expect(page).toContain("保存しているサーバーはありません");

    const saved = await save(member, { showDiscordGuilds: "on" });
    expect([302, 303]).toContain(saved.status);
    expect(saved.headers.get("location")).toBe("/settings/privacy");
    expect(await showing(member)).toBe(true);
    const after = await htmlOf(await member.page("/settings/privacy"));
    expect(after).toContain("プライバシー設定を保存しました");
    expect(box(after)).toContain('checked=""');

    expect([302, 303]).toContain((await save(member, {})).status);
    expect(await showing(member)).toBe(false);

    // Only a forged form sends another value: refused, nothing changed.
    const forged = await save(member, { showDiscordGuilds: "yes" });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("入力内容を確認してください");
    expect(await showing(member)).toBe(false);

    await linkDiscord(db(), member.id, [
      { id: snowflake(), name: "One" },
      { id: snowflake(), name: "Two" },
    ]);
    expect(await htmlOf(await member.page("/settings/privacy"))).toContain("保存しているサーバー: 2件");
  });

  it("is behind sign-in and linked from the settings hub", async () => {
    const response = await app.request("/settings/privacy");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fsettings%2Fprivacy");
    const member = await createBrowserMember(app, "ハブ");
    expect(await htmlOf(await member.page("/settings"))).toContain('href="/settings/privacy"');
  });

  it("shows the shared servers on a profile only when both gamers turned it on", async () => {
    const guild = { id: snowflake(), name: "共通のギルド", icon: ICON };
    const [viewer, owner] = [await createBrowserMember(app, "見る人"), await createBrowserMember(app, "見られる人")];
    await linkDiscord(db(), viewer.id, [guild, { id: snowflake(), name: "見る人だけのギルド" }]);
    await linkDiscord(db(), owner.id, [guild, { id: snowflake(), name: "見られる人だけのギルド" }]);
    const heading = 'id="shared-guilds-title"';
    const profile = async (member: Member | null) => htmlOf(await (member ? member.page(`/u/${owner.id}`) : app.request(`/u/${owner.id}`)));

    expect(await profile(viewer)).not.toContain(heading);
    await save(owner, { showDiscordGuilds: "on" });
    expect(await profile(viewer)).not.toContain(heading);
    await save(owner, {});
    await save(viewer, { showDiscordGuilds: "on" });
    expect(await profile(viewer)).not.toContain(heading);

    await save(owner, { showDiscordGuilds: "on" });
    const both = await profile(viewer);
    expect(both).toContain(heading);
    expect(both).toContain("共通のDiscordサーバー");
    expect(both).toContain("共通のギルド");
    expect(both).not.toContain("だけのギルド");
    expect(both).toContain(`${app.config.DISCORD_CDN_URL.replace(/\/+$/, "")}/icons/${guild.id}/${ICON}.png?size=64`);
    // Nobody else sees them: not a visitor signed out, not the owner on their own profile.
    expect(await profile(null)).not.toContain(heading);
    expect(await profile(owner)).not.toContain(heading);
  });
});
