import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { closeLocalAccount } from "../../app/infra/auth/close-account";
import { signAnonKey } from "../../app/infra/auth/jwt";
import { PASSWORD, signUp, uniqueEmail } from "../support/auth";
import { CookieJar } from "../support/cookies";
import { startDiscordStandIn } from "../support/discord-stand-in.mjs";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Discordでログイン on the embedded auth, end to end against a stand-in Discord on this machine: supabase-js
 * as a browser app uses it (PKCE), the consent page's 許可/拒否, the callback, and every branch of whose account it is,
 * each asserting the rows that exist afterwards. SITE_URL is a name nobody resolves: the browser's hops to it are made
 * here against the test server, as a browser would follow them.
 */
const SITE = "http://gamermatch.test";
const CLIENT_ID = "100000000000000001";
const CLIENT_SECRET = "stand-in-secret";

type StandIn = Awaited<ReturnType<typeof startDiscordStandIn>>;
let discord: StandIn;
let app: TestServer;
let anonKey: string;
let clockOffsetMs = 0;
let discordIds = 0;

beforeAll(async () => {
  discord = await startDiscordStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: `${SITE}/auth/v1/callback` });
  app = await startTestServer({
    seed: false,
    clock: () => new Date(Date.now() + clockOffsetMs),
    env: {
      SITE_URL: SITE,
      DISCORD_CLIENT_ID: CLIENT_ID,
      DISCORD_CLIENT_SECRET: CLIENT_SECRET,
      DISCORD_URL: discord.url,
      DISCORD_CDN_URL: discord.url,
      // The stand-in's avatars are on loopback (app/infra/outbound.ts refuses it otherwise).
      TEST_OUTBOUND_LOOPBACK: "true",
      DISCORD_TIMEOUT_MS: "800",
      AUTH_REDIRECT_URLS: "http://app.example.jp/welcome",
    },
  });
  anonKey = await signAnonKey(app.config.SUPABASE_JWT_SECRET!);
});
afterAll(async () => {
  await app?.close();
  await discord?.close();
});
beforeEach(() => {
  discord.reset();
  clockOffsetMs = 0;
  // Every test signs in as a Discord account of its own, with an address of its own.
  discordIds += 1;
  discord.user = { ...discord.user, id: String(800000000000100000n + BigInt(discordIds)), email: uniqueEmail("discord") };
});

const db = () => app.database.db;

/** supabase-js as a browser app keeps it: PKCE, its verifier in the app's storage. */
function browserClient(): SupabaseClient {
  const storage = new Map<string, string>();
  return createClient(app.url, anonKey, {
    auth: {
      flowType: "pkce",
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: { getItem: (key) => storage.get(key) ?? null, setItem: (key, value) => void storage.set(key, value), removeItem: (key) => void storage.delete(key) },
    },
    realtime: { transport: WebSocket as never },
  });
}

const local = (url: string | URL) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};

/** The consent page's form as a person sends it: the request's parameters, who they are, and 許可 or 拒否. */
function consentForm(authorizeUrl: URL, decision: "allow" | "deny") {
  const form = new URLSearchParams(authorizeUrl.search);
  const user = discord.user;
  form.set("decision", decision);
  form.set("user_id", user.id);
  form.set("username", user.username);
  form.set("global_name", user.global_name ?? "");
  form.set("email", user.email ?? "");
  if (user.verified) form.set("verified", "true");
  form.set("guilds", discord.guilds.map((guild) => `${guild.id}:${guild.name}`).join(", "));
  return form;
}

/**
 * From the embedded auth's authorize URL to where it sends the browser back: our /authorize, Discord's consent page,
 * the person's decision, our /callback. Answers the final Location.
 */
async function throughDiscord(authorizeUrl: string, decision: "allow" | "deny" = "allow") {
  const started = await app.request(local(authorizeUrl));
  expect(started.status).toBe(302);
  const consentUrl = new URL(started.headers.get("location")!);
  expect(consentUrl.origin).toBe(discord.url);
  const page = await fetch(consentUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("許可");
  const decided = await fetch(`${discord.url}/oauth2/authorize`, { method: "POST", body: consentForm(consentUrl, decision), redirect: "manual" });
  expect(decided.status).toBe(302);
  const back = new URL(decided.headers.get("location")!);
  expect(back.origin + back.pathname).toBe(`${SITE}/auth/v1/callback`);
  const callback = await app.request(local(back));
  expect(callback.status).toBe(302);
  return new URL(callback.headers.get("location")!);
}

/** signInWithOAuth as the app calls it, through Discord: the Location it ends at, and the client to finish with. */
async function signInWithDiscord({ redirectTo = `${SITE}/auth/callback`, decision = "allow" as "allow" | "deny" } = {}) {
  const supabase = browserClient();
  const { data, error } = await supabase.auth.signInWithOAuth({ provider: "discord", options: { redirectTo, scopes: "identify email guilds", skipBrowserRedirect: true } });
  expect(error).toBeNull();
  const landed = await throughDiscord(data.url!, decision);
  return { supabase, landed };
}

/** A whole sign-in that succeeds: the session supabase-js made of the code. */
async function discordSession() {
  const { supabase, landed } = await signInWithDiscord();
  const code = landed.searchParams.get("code");
  expect(code, `came back with ${landed}`).toBeTruthy();
  const { data, error } = await supabase.auth.exchangeCodeForSession(code!);
  expect(error).toBeNull();
  return { supabase, session: data.session!, user: data.user! };
}

/** The rows a Discord sign-in may write, for the Discord account `providerId` and the address `email`. */
async function rowsFor({ providerId = discord.user.id, email = discord.user.email! }: { providerId?: string; email?: string } = {}) {
  const [accounts, identities, guilds] = await Promise.all([
    db().selectFrom("auth_users").select(["id", "password_hash", "email_proven_at"]).where("email", "=", email).execute(),
    db().selectFrom("auth_identities").select(["id", "user_id"]).where("provider_id", "=", providerId).execute(),
    db().selectFrom("discord_guilds as g").innerJoin("auth_identities as i", "i.id", "g.identity_id").select(["g.guild_id", "g.name"]).where("i.provider_id", "=", providerId).orderBy("g.guild_id").execute(),
  ]);
  const sessions = accounts.length
    ? await db().selectFrom("auth_sessions").select("id").where("user_id", "in", accounts.map((account) => account.id)).execute()
    : [];
  return { accounts, identities, guilds, sessions };
}

/** An account made with a password whose address was proven by following a mailed link (a recovery link here). */
async function provenAccount(email: string) {
  const made = await signUp(app, email);
  const recovered = await fetch(`${app.url}/auth/v1/recover`, { method: "POST", body: JSON.stringify({ email }), headers: { "Content-Type": "application/json" } });
  expect(recovered.status).toBe(200);
  const mail = await db().selectFrom("mail_outbox").select("data").where("to_address", "=", email).where("kind", "=", "recovery").executeTakeFirstOrThrow();
  const verified = await browserClient().auth.verifyOtp({ type: "recovery", token_hash: (mail.data as { token: string }).token });
  expect(verified.error).toBeNull();
  return made;
}

describe("signing in with Discord through supabase-js", () => {
  it("makes a new account from a Discord account with a verified address, with its identity and servers", async () => {
    const { session, user, supabase } = await discordSession();
    expect(user.email).toBe(discord.user.email);
    expect(user.app_metadata).toEqual({ provider: "discord", providers: ["discord"] });
    expect(user.user_metadata).toMatchObject({ full_name: discord.user.username, custom_claims: { global_name: "けんた" }, provider_id: discord.user.id });
    expect(user.user_metadata.avatar_url).toBe(`${discord.url}/avatars/${discord.user.id}/${discord.user.avatar}.png?size=256`);
    expect(session.refresh_token).toBeTruthy();

    const { data } = await supabase.auth.getUserIdentities();
    expect(data?.identities).toEqual([expect.objectContaining({ provider: "discord", id: discord.user.id, user_id: user.id, email: discord.user.email })]);

    const rows = await rowsFor();
    expect(rows.accounts).toEqual([{ id: user.id, password_hash: null, email_proven_at: expect.any(Date) }]);
    expect(rows.identities).toEqual([{ id: data!.identities[0]!.identity_id, user_id: user.id }]);
    expect(rows.guilds).toEqual([
      { guild_id: "900000000000000001", name: "APEX部" },
      { guild_id: "900000000000000002", name: "まったり雑談" },
    ]);
    expect(rows.sessions).toHaveLength(1);

    // What Discord saw: the three scopes, PKCE, and our client's secret at its token endpoint.
    const authorize = discord.requests.find((request: { path: string }) => request.path === "/oauth2/authorize")!;
    expect(authorize.query).toMatchObject({ client_id: CLIENT_ID, scope: "identify email guilds", code_challenge_method: "S256", redirect_uri: `${SITE}/auth/v1/callback` });
    const token = discord.requests.find((request: { path: string }) => request.path === "/api/oauth2/token")!;
    expect(token.body).toMatchObject({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_type: "authorization_code" });
    expect(token.body!.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    // A password sign-in finds nobody: the account has no password until it sets one.
    expect((await browserClient().auth.signInWithPassword({ email: discord.user.email!, password: PASSWORD })).error?.status).toBe(400);
  });

  it("signs a returning Discord user into the same account and refreshes their servers", async () => {
    const first = await discordSession();
    discord.guilds = [{ id: "900000000000000003", name: "新しいサーバー", icon: null }];
    discord.user = { ...discord.user, email: uniqueEmail("changed") };
    const again = await discordSession();
    expect(again.user.id).toBe(first.user.id);
    const rows = await rowsFor({ email: first.user.email! });
    expect(rows.accounts).toHaveLength(1);
    expect(rows.identities).toHaveLength(1);
    expect(rows.guilds).toEqual([{ guild_id: "900000000000000003", name: "新しいサーバー" }]);
    expect(rows.sessions).toHaveLength(2);
  });

  it("links a Discord account whose verified address is an account's proven one, into that account", async () => {
    const email = discord.user.email!;
    const { session } = await provenAccount(email);
    const { user, supabase } = await discordSession();
    expect(user.id).toBe(session.user.id);
    expect(user.app_metadata).toEqual({ provider: "email", providers: ["email", "discord"] });
    const { data } = await supabase.auth.getUserIdentities();
    expect(data?.identities.map((identity) => identity.provider)).toEqual(["email", "discord"]);
    const rows = await rowsFor();
    expect(rows.accounts).toHaveLength(1);
    expect(rows.identities).toEqual([{ id: expect.any(String), user_id: session.user.id }]);
  });

  it.each([
    ["Discord has not verified the address", { proven: true, verified: false }],
    ["the account never proved its address (every sign-up while AUTH_CONFIRM_EMAIL is off)", { proven: false, verified: true }],
  ])("links nothing and makes nothing when %s, and says to sign in with the password", async (_, { proven, verified }) => {
    const email = discord.user.email!;
    const { session } = proven ? await provenAccount(email) : await signUp(app, email);
    discord.user = { ...discord.user, verified };
    const { landed } = await signInWithDiscord();
    expect(landed.origin + landed.pathname).toBe(`${SITE}/auth/callback`);
    expect(landed.searchParams.get("error_code")).toBe("email_exists");
    expect(landed.searchParams.get("code")).toBeNull();
    const rows = await rowsFor();
    expect(rows.accounts.map((account) => account.id)).toEqual([session.user.id]);
    expect(rows.identities).toEqual([]);
    expect(rows.guilds).toEqual([]);
    // The page the app shows for it.
    const login = await app.request(`/login?error=email_taken`);
    expect(await login.text()).toContain("設定の「アカウント」からDiscordを連携してください");
  });

  it("makes no account for a new address Discord has not verified", async () => {
    discord.user = { ...discord.user, verified: false };
    const { landed } = await signInWithDiscord();
    expect(landed.searchParams.get("error_code")).toBe("email_not_confirmed");
    expect(await rowsFor()).toEqual({ accounts: [], identities: [], guilds: [], sessions: [] });
  });

  it("goes back with access_denied when the person refuses consent, having made nothing", async () => {
    const { landed } = await signInWithDiscord({ decision: "deny" });
    expect(landed.origin + landed.pathname).toBe(`${SITE}/auth/callback`);
    expect(landed.searchParams.get("error")).toBe("access_denied");
    expect(landed.searchParams.get("error_description")).toBeTruthy();
    expect(await rowsFor()).toEqual({ accounts: [], identities: [], guilds: [], sessions: [] });
    expect(discord.requests.some((request: { path: string }) => request.path === "/api/oauth2/token")).toBe(false);
  });

  it.each([
    ["the token endpoint answers 500", { token: 500 }],
    ["the token endpoint hangs", { token: "hang" }],
    ["/users/@me answers 500", { user: 500 }],
    ["/users/@me/guilds hangs", { guilds: "hang" }],
  ] as const)("goes back with server_error when %s, having made nothing", async (_, fail) => {
    discord.fail = fail;
    const started = Date.now();
    const { landed } = await signInWithDiscord();
    // DISCORD_TIMEOUT_MS is 800: a hang is cut there, not left to the browser's patience.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(landed.searchParams.get("error")).toBe("server_error");
    expect(landed.searchParams.get("error_code")).toBe("provider_error");
    expect(await rowsFor()).toEqual({ accounts: [], identities: [], guilds: [], sessions: [] });
  });

  it("refuses an unknown, a reused and an expired state", async () => {
    const unknown = await app.request("/auth/v1/callback?code=whatever&state=not-a-state");
    expect(unknown.status).toBe(302);
    const unknownBack = new URL(unknown.headers.get("location")!);
    expect(unknownBack.origin).toBe(SITE);
    expect(unknownBack.searchParams.get("error_code")).toBe("flow_state_not_found");

    // Reused: Discord's redirect followed twice (a reload, or someone who saw the URL).
    const supabase = browserClient();
    const { data } = await supabase.auth.signInWithOAuth({ provider: "discord", options: { redirectTo: `${SITE}/auth/callback`, skipBrowserRedirect: true } });
    const started = await app.request(local(data.url!));
    const consentUrl = new URL(started.headers.get("location")!);
    const decided = await fetch(`${discord.url}/oauth2/authorize`, { method: "POST", body: consentForm(consentUrl, "allow"), redirect: "manual" });
    const back = local(decided.headers.get("location")!);
    expect(new URL((await app.request(back)).headers.get("location")!).searchParams.get("code")).toBeTruthy();
    const second = new URL((await app.request(back)).headers.get("location")!);
    expect(second.searchParams.get("error_code")).toBe("flow_state_not_found");
    expect(second.searchParams.get("code")).toBeNull();

    // Expired: Discord came back eleven minutes later.
    discord.user = { ...discord.user, id: "800000000000999999", email: uniqueEmail("late") };
    const late = browserClient();
    const { data: lateData } = await late.auth.signInWithOAuth({ provider: "discord", options: { redirectTo: `${SITE}/auth/callback`, skipBrowserRedirect: true } });
    const lateStart = await app.request(local(lateData.url!));
    const lateDecided = await fetch(`${discord.url}/oauth2/authorize`, { method: "POST", body: consentForm(new URL(lateStart.headers.get("location")!), "allow"), redirect: "manual" });
    clockOffsetMs = 11 * 60_000;
    const expired = new URL((await app.request(local(lateDecided.headers.get("location")!))).headers.get("location")!);
    expect(expired.searchParams.get("error_code")).toBe("flow_state_expired");
    expect(await rowsFor()).toEqual({ accounts: [], identities: [], guilds: [], sessions: [] });
  });

  it("gives a session for an auth code once, and never for a wrong verifier", async () => {
    const { supabase, landed } = await signInWithDiscord();
    const code = landed.searchParams.get("code")!;
    const exchange = (verifier: string) =>
      app.request("/auth/v1/token?grant_type=pkce", { method: "POST", headers: { "Content-Type": "application/json", apikey: anonKey }, body: JSON.stringify({ auth_code: code, code_verifier: verifier }) });
    const wrong = await exchange("x".repeat(43));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 400, error_code: "bad_code_verifier" });
    // The wrong guess spent the code: the right verifier comes too late.
    const right = await supabase.auth.exchangeCodeForSession(code);
    expect(right.error?.status).toBe(404);
    expect(right.error?.code).toBe("flow_state_not_found");
    expect((await rowsFor()).sessions).toEqual([]);

    const { supabase: other, landed: again } = await signInWithDiscord();
    const otherCode = again.searchParams.get("code")!;
    expect((await other.auth.exchangeCodeForSession(otherCode)).error).toBeNull();
    const verifierless = await app.request("/auth/v1/token?grant_type=pkce", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ auth_code: otherCode, code_verifier: "y".repeat(43) }),
    });
    expect(verifierless.status).toBe(404);
    expect((await verifierless.json()).error_code).toBe("flow_state_not_found");
    expect((await rowsFor()).sessions).toHaveLength(1);
  });

  it("never sends the browser to a redirect_to outside SITE_URL and the allow list", async () => {
    for (const outside of ["https://evil.example/steal", "http://gamermatch.test.evil.example/auth/callback", "javascript:alert(1)", "//evil.example/"]) {
      const { landed } = await signInWithDiscord({ redirectTo: outside });
      expect(landed.origin, outside).toBe(SITE);
      expect(landed.pathname).toBe("/");
      expect(landed.searchParams.get("code")).toBeTruthy();
    }
    const allowed = await signInWithDiscord({ redirectTo: "http://app.example.jp/welcome/back?x=1" });
    expect(allowed.landed.origin + allowed.landed.pathname).toBe("http://app.example.jp/welcome/back");
    expect(allowed.landed.searchParams.get("x")).toBe("1");
    const notUnder = await signInWithDiscord({ redirectTo: "http://app.example.jp/welcomeback" });
    expect(notUnder.landed.origin).toBe(SITE);
  });

  it("refuses what it cannot do in GoTrue's error shape: another provider, or no PKCE", async () => {
    const google = await app.request(`/auth/v1/authorize?provider=google&code_challenge=${"a".repeat(43)}&code_challenge_method=s256`);
    expect(google.status).toBe(400);
    expect(await google.json()).toMatchObject({ code: 400, error_code: "validation_failed" });
    const implicit = await app.request("/auth/v1/authorize?provider=discord");
    expect(implicit.status).toBe(400);
    expect((await implicit.json()).error_code).toBe("validation_failed");
    const settings = await (await app.request("/auth/v1/settings")).json();
    expect(settings.external).toMatchObject({ email: true, discord: true });
  });
});

describe("linking and unlinking Discord", () => {
  /** linkIdentity as the settings page calls it, through Discord and back: the final Location. */
  async function linkDiscord(supabase: SupabaseClient) {
    const { data, error } = await supabase.auth.linkIdentity({ provider: "discord", options: { redirectTo: `${SITE}/auth/callback?next=/settings`, skipBrowserRedirect: true } });
    expect(error).toBeNull();
    const consentUrl = new URL(data.url!);
    expect(consentUrl.origin).toBe(discord.url);
    const decided = await fetch(`${discord.url}/oauth2/authorize`, { method: "POST", body: consentForm(consentUrl, "allow"), redirect: "manual" });
    const callback = await app.request(local(decided.headers.get("location")!));
    return new URL(callback.headers.get("location")!);
  }

  /** A password account signed in through a PKCE client, as the settings page's supabase-js is. */
  async function passwordAccount() {
    const email = uniqueEmail();
    await signUp(app, email);
    const supabase = browserClient();
    expect((await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    return supabase;
  }

  it("links Discord to a signed-in account whatever its address, and unlinks it with its servers", async () => {
    const supabase = await passwordAccount();
    const userId = (await supabase.auth.getUser()).data.user!.id;
    const landed = await linkDiscord(supabase);
    expect(local(landed)).toMatch(/^\/auth\/callback\?next=%2Fsettings&code=/);
    const exchanged = await supabase.auth.exchangeCodeForSession(landed.searchParams.get("code")!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user!.id).toBe(userId);
    const { data } = await supabase.auth.getUserIdentities();
    expect(data!.identities.map((identity) => identity.provider)).toEqual(["email", "discord"]);
    expect((await rowsFor()).guilds).toHaveLength(2);
    // The Discord account now signs in to it.
    expect((await discordSession()).user.id).toBe(userId);

    const discordIdentity = data!.identities.find((identity) => identity.provider === "discord")!;
    const unlinked = await supabase.auth.unlinkIdentity(discordIdentity);
    expect(unlinked.error).toBeNull();
    expect((await supabase.auth.getUserIdentities()).data!.identities.map((identity) => identity.provider)).toEqual(["email"]);
    const rows = await rowsFor({ email: "nobody@example.jp" });
    expect(rows.identities).toEqual([]);
    expect(rows.guilds).toEqual([]);
  });

  it("refuses to link a Discord account that is another account's", async () => {
    const owner = await discordSession();
    const supabase = await passwordAccount();
    const landed = await linkDiscord(supabase);
    expect(landed.searchParams.get("error_code")).toBe("identity_already_exists");
    const rows = await rowsFor({ email: owner.user.email! });
    expect(rows.identities).toEqual([{ id: expect.any(String), user_id: owner.user.id }]);
  });

  it("refuses to unlink an account's last way to sign in, and allows it once a password is set by the recovery mail", async () => {
    const { supabase, user } = await discordSession();
    const identity = (await supabase.auth.getUserIdentities()).data!.identities[0]!;
    const refused = await supabase.auth.unlinkIdentity(identity);
    expect(refused.error?.status).toBe(422);
    expect(refused.error?.code).toBe("single_identity_not_deletable");
    expect((await rowsFor()).identities).toHaveLength(1);

    // A Discord-only account sets a password through the recovery mail, as a forgotten one.
    const email = user.email!;
    await fetch(`${app.url}/auth/v1/recover`, { method: "POST", body: JSON.stringify({ email }), headers: { "Content-Type": "application/json" } });
    const mail = await db().selectFrom("mail_outbox").select("data").where("to_address", "=", email).where("kind", "=", "recovery").executeTakeFirstOrThrow();
    const recovery = browserClient();
    expect((await recovery.auth.verifyOtp({ type: "recovery", token_hash: (mail.data as { token: string }).token })).error).toBeNull();
    expect((await recovery.auth.updateUser({ password: "a-new-password-1" })).error).toBeNull();
    const { data } = await recovery.auth.getUserIdentities();
    expect(data!.identities.map((entry) => entry.provider)).toEqual(["email", "discord"]);
    expect((await recovery.auth.unlinkIdentity(data!.identities[1]!)).error).toBeNull();
    expect((await browserClient().auth.signInWithPassword({ email, password: "a-new-password-1" })).error).toBeNull();
  });

  it("answers 404 for someone else's identity and for no identity at all", async () => {
    const owner = await discordSession();
    const ownerIdentity = (await owner.supabase.auth.getUserIdentities()).data!.identities[0]!;
    const stranger = await passwordAccount();
    const { data } = await stranger.auth.getSession();
    for (const id of [ownerIdentity.identity_id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const response = await app.request(`/auth/v1/user/identities/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${data.session!.access_token}` } });
      expect(response.status, id).toBe(404);
      expect((await response.json()).error_code).toBe("identity_not_found");
    }
    expect((await rowsFor({ email: owner.user.email! })).identities).toHaveLength(1);
  });
});

describe("the app's pages with Discord", () => {
  /** A browser without JavaScript: the pages' forms and redirects, with its cookies. */
  function browser() {
    const jar = new CookieJar();
    const go = async (path: string, init: RequestInit = {}) => {
      const response = await app.request(path, { ...init, headers: { ...init.headers, Cookie: jar.header(), Origin: app.url } });
      jar.store(response);
      return response;
    };
    return { jar, go };
  }

  it("shows 「Discordでログイン」 on /login and /signup", async () => {
    expect(await (await app.request("/login")).text()).toContain("Discordでログイン");
    expect(await (await app.request("/signup")).text()).toContain("Discordでログイン");
  });

  it("signs a new gamer in from the login form, with a profile made from Discord's name and avatar", async () => {
    const { go } = browser();
    const posted = await go("/auth/discord", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
    expect(posted.status).toBe(302);
    const authorize = new URL(posted.headers.get("location")!);
    expect(authorize.pathname).toBe("/auth/v1/authorize");
    expect(authorize.searchParams.get("redirect_to")).toBe(`${SITE}/auth/callback?next=%2F`);
    const consentUrl = new URL((await go(local(authorize))).headers.get("location")!);
    const decided = await fetch(`${discord.url}/oauth2/authorize`, { method: "POST", body: consentForm(consentUrl, "allow"), redirect: "manual" });
    const back = new URL((await go(local(decided.headers.get("location")!))).headers.get("location")!);
    const landed = await go(local(back));
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe("/mypage/gamer-edit?redirectTo=%2F");

    const account = (await rowsFor()).accounts[0]!;
    const profile = await db().selectFrom("users").select(["display_name", "avatar_url"]).where("id", "=", account.id).executeTakeFirstOrThrow();
    expect(profile.display_name).toBe("けんた");
    expect(profile.avatar_url).toMatch(/^\/uploads\/avatar\/[0-9a-f]{64}\.png$/);
    const upload = await db().selectFrom("uploads").select(["kind", "width"]).where("owner_id", "=", account.id).executeTakeFirstOrThrow();
    expect(upload.kind).toBe("avatar");
    // Fetched once, from the CDN, and re-encoded: the page never points at Discord for it.
    expect(discord.requests.filter((request: { path: string }) => request.path.startsWith("/avatars/"))).toHaveLength(1);
    const page = await go("/mypage/gamer-edit?redirectTo=%2F");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("けんた");
  });

  it("asks an account with an authenticator app for its code after Discord, as after the password (ADR 064)", async () => {
    const { supabase, session } = await discordSession();
    const profile = await app.request("/api/user/profile", { method: "POST", headers: { Authorization: `Bearer ${session.access_token}`, "Content-Type": "application/json" }, body: JSON.stringify({ displayName: "けんた" }) });
    expect(profile.ok).toBe(true);
    const { data: factor } = await supabase.auth.mfa.enroll({ factorType: "totp" });
    const code = TOTP.generate({ secret: Secret.fromBase32(factor!.totp!.secret), algorithm: "SHA1", digits: 6, period: 30 });
    expect((await supabase.auth.mfa.challengeAndVerify({ factorId: factor!.id, code })).error).toBeNull();

    const { go } = browser();
    const posted = await go("/auth/discord", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
    const consentUrl = new URL((await go(local(posted.headers.get("location")!))).headers.get("location")!);
    const decided = await fetch(`${discord.url}/oauth2/authorize`, { method: "POST", body: consentForm(consentUrl, "allow"), redirect: "manual" });
    const back = new URL((await go(local(decided.headers.get("location")!))).headers.get("location")!);
    const landed = await go(local(back));
    expect(landed.headers.get("location")).toBe("/login/mfa?redirectTo=%2F");
    expect((await go("/mypage")).headers.get("location")).toBe("/login/mfa?redirectTo=%2Fmypage");
  });

  it("sends a refused sign-in to /login with its message in Japanese", async () => {
    const { go } = browser();
    const posted = await go("/auth/discord", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
    const consentUrl = new URL((await go(local(posted.headers.get("location")!))).headers.get("location")!);
    const decided = await fetch(`${discord.url}/oauth2/authorize`, { method: "POST", body: consentForm(consentUrl, "deny"), redirect: "manual" });
    const back = new URL((await go(local(decided.headers.get("location")!))).headers.get("location")!);
    const landed = await go(local(back));
    expect(landed.headers.get("location")).toBe("/login?error=cancelled");
    const login = await go("/login?error=cancelled");
    expect(await login.text()).toContain("Discordでのログインがキャンセルされました。");
    // Only known kinds are said: anything else is the generic message, never text from the URL.
    expect(await (await go("/login?error=%E5%81%BD%E3%81%AE%E6%A1%88%E5%86%85")).text()).toContain("Discordでログインできませんでした。");
  });

  it("deletes the Discord identity and servers when the account leaves", async () => {
    const { user } = await discordSession();
    await db().transaction().execute(async (trx) => {
      await closeLocalAccount(trx, { userId: user.id, now: new Date() });
    });
    const identities = await db().selectFrom("auth_identities").select("id").where("user_id", "=", user.id).execute();
    const guilds = await db().selectFrom("discord_guilds").select("guild_id").where("user_id", "=", user.id).execute();
    expect(identities).toEqual([]);
    expect(guilds).toEqual([]);
    // The Discord account may then make a new account.
    const again = await discordSession();
    expect(again.user.id).not.toBe(user.id);
  });
});
