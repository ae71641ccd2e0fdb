import type { Transaction } from "kysely";
import { DateTime } from "luxon";
import sharp from "sharp";
import type { DB } from "../../../app/infra/db/tables";
import type { ImageStorage } from "../../../app/infra/storage";
import { DISPLAY_TIME_ZONE } from "../../../app/lib/constants";
import { storeImage } from "../../../app/models/uploads.server";
import { DEMO_ACCOUNTS, DEMO_COMMUNITIES, DEMO_COMMUNITY_POSTS, DEMO_EVENTS, DEMO_POSTS } from "./demo-data";
import { avatarSvg, DEMO_COLOURS, sceneSvg } from "./pictures";

/**
 * Avatars and posts of the demo accounts, some with a picture. The pictures are drawn here (SVG rendered by sharp) and
 * stored through the same path as an upload, so a fresh start downloads nothing.
 */
export async function seedDemoPosts(trx: Transaction<DB>, storage: ImageStorage) {
  const picture = async (userId: string, kind: "post" | "avatar", svg: string) =>
    storeImage({ db: trx, storage, userId, kind, bytes: await sharp(Buffer.from(svg)).png().toBuffer() });
  for (const [index, account] of DEMO_ACCOUNTS.entries()) {
    const avatar = await picture(account.id, "avatar", avatarSvg(DEMO_COLOURS[index]!));
    await trx.updateTable("users").set({ avatar_url: avatar.url }).where("id", "=", account.id).execute();
  }
  const now = Date.now();
  for (const [index, [author, content, scene]] of DEMO_POSTS.entries()) {
    const account = DEMO_ACCOUNTS[author];
    const image = scene === null ? null : await picture(account.id, "post", sceneSvg(scene));
    await trx
      .insertInto("posts")
      // Oldest first, a few hours apart, the newest an hour ago.
      .values({ author_id: account.id, content, upload_id: image?.id ?? null, created_at: new Date(now - (DEMO_POSTS.length - index) * 5 * 3600_000) })
      .execute();
  }
}

/** Two or three communities for each popular game; answers the ids of those it created, by slug. */
export async function seedDemoCommunities(trx: Transaction<DB>, games: Map<string, number>) {
  const created = new Map<string, string>();
  for (const [slug, gameSlug, name, description] of DEMO_COMMUNITIES) {
    const community = await trx
      .insertInto("communities")
      .values({ slug, name, description, game_id: games.get(gameSlug)! })
      .onConflict((oc) => oc.column("slug").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (community) created.set(slug, community.id);
  }
  return created;
}

/** The demo accounts as members of the new communities (the count set to match) and a few posts tagged with them. */
export async function seedDemoCommunityMembers(trx: Transaction<DB>, communities: Map<string, string>) {
  const now = Date.now();
  for (const [slug, , , , members] of DEMO_COMMUNITIES) {
    const id = communities.get(slug);
    if (!id) continue;
    await trx.updateTable("communities").set({ members_count: members.length }).where("id", "=", id).execute();
    await trx
      .insertInto("community_members")
      .values(members.map((member, index) => ({ community_id: id, user_id: DEMO_ACCOUNTS[member].id, joined_at: new Date(now - (index + 1) * 86_400_000) })))
      .execute();
    for (const [index, [author, content]] of DEMO_COMMUNITY_POSTS.filter(([, , community]) => community === slug).entries()) {
      await trx
        .insertInto("posts")
        .values({ author_id: DEMO_ACCOUNTS[author].id, content, community_id: id, created_at: new Date(now - (index * 7 + 2) * 3600_000) })
        .execute();
    }
  }
}

/**
 * The events (DEMO_EVENTS), with the demo accounts as participants when there are demo accounts (events are public
 * content, so a production start gets them too, empty). Times are relative to the seed time, on Japanese evenings.
 */
export async function seedDemoEvents(trx: Transaction<DB>, { withParticipants }: { withParticipants: boolean }) {
  if (await trx.selectFrom("events").select("id").limit(1).executeTakeFirst()) return;
  const games = new Map((await trx.selectFrom("games").select(["id", "slug"]).execute()).map((game) => [game.slug, game.id]));
  const now = Date.now();
  const hour = 3600_000;
  const evening = (days: number, hourOfDay: number) =>
    DateTime.fromMillis(now, { zone: DISPLAY_TIME_ZONE }).plus({ days }).set({ hour: hourOfDay, minute: 0, second: 0, millisecond: 0 }).toJSDate();
  const soon = new Date(Math.ceil((now + 45 * 60_000) / (15 * 60_000)) * 15 * 60_000);
  const events = DEMO_EVENTS.map((event) => ({ ...event, startsAt: event.starts === "soon" ? soon : evening(event.starts.days, event.starts.hour) }));
  for (const event of events) {
    const { id } = await trx
      .insertInto("events")
      .values({
        game_id: games.get(event.slug)!,
        title: event.title,
        description: event.description,
        starts_at: event.startsAt,
        ends_at: new Date(event.startsAt.getTime() + event.hours * hour),
        capacity: event.capacity,
        participants_count: withParticipants ? event.participants.length : 0,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (!withParticipants) continue;
    await trx
      .insertInto("event_participants")
      .values(event.participants.map((index) => ({ event_id: id, user_id: DEMO_ACCOUNTS[index]!.id, joined_at: new Date(Math.min(now, event.startsAt.getTime()) - hour), reminded_at: event.startsAt.getTime() < now ? event.startsAt : null })))
      .execute();
  }
}
