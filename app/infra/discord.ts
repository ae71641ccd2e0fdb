import * as oauth from "oauth4webapi";
import { DISCORD_AVATAR_MAX_BYTES as AVATAR_MAX_BYTES } from "~/lib/constants";
import { outboundRequest, type OutboundPolicy } from "./outbound";

/**
 * Discord as an OAuth 2.0 authorization server (ADR 039), through oauth4webapi with the endpoints named:
 * `DISCORD_URL` is https://discord.com in production and a stand-in in tests and staging. The embedded auth server
 * (server/auth/external.ts) is its only user: it sends the browser to `authorizeUrl`, then trades the code for a
 * token and reads who signed in and which servers they are in.
 */

/** The person Discord says signed in (`GET /users/@me` with the `identify email` scopes). */
export interface DiscordUser {
  id: string;
  username: string;
  globalName: string | null;
  /** The avatar's hash, or null when they have none. */
  avatar: string | null;
  email: string | null;
  /** Discord verified the address. */
  verified: boolean;
}

/** A server they are in (`GET /users/@me/guilds` with the `guilds` scope). */
export interface DiscordGuild {
  id: string;
  name: string;
  icon: string | null;
}

export interface DiscordClient {
  /**
   * Where to send the browser: Discord's consent page, which comes back to `redirectUri` with `code` and `state`;
   * with the PKCE verifier to keep for `signIn`.
   */
  startAuthorization(options: { redirectUri: string; state: string; scopes: readonly string[] }): Promise<{ url: string; codeVerifier: string }>;
  /** Trades the code Discord sent back (with our PKCE verifier) for the person and their servers. */
  signIn(options: { code: string; codeVerifier: string; redirectUri: string }): Promise<{ user: DiscordUser; guilds: DiscordGuild[] }>;
  /** The avatar on Discord's CDN, or null when they have none. */
  avatarUrl(user: DiscordUser): string | null;
  /** A server's icon, as the browser loads it from Discord's CDN. */
  guildIconUrl(guild: { id: string; icon: string | null }): string | null;
  /** The CDN's origin, for the Content-Security-Policy. */
  cdnOrigin: string;
  /** Discord's origin, where the sign-in form's redirects end (form-action). */
  origin: string;
}

/** Discord did not answer as it should: refused the code, failed, or took too long. The message is for the log. */
export class DiscordError extends Error {
  override name = "DiscordError";
}


export function createDiscordClient({
  clientId,
  clientSecret,
  baseUrl,
  cdnUrl,
  timeoutMs,
}: {
  clientId: string;
  clientSecret: string;
  /** https://discord.com, or a stand-in. */
  baseUrl: string;
  /** https://cdn.discordapp.com, or a stand-in. */
  cdnUrl: string;
  /** Each request to Discord gives up after this long. */
  timeoutMs: number;
}): DiscordClient {
  const base = baseUrl.replace(/\/+$/, "");
  const cdn = cdnUrl.replace(/\/+$/, "");
  const server: oauth.AuthorizationServer = {
    issuer: base,
    authorization_endpoint: `${base}/oauth2/authorize`,
    token_endpoint: `${base}/api/oauth2/token`,
  };
  const client: oauth.Client = { client_id: clientId };
  const clientAuth = oauth.ClientSecretPost(clientSecret);
  const options = {
    signal: () => AbortSignal.timeout(timeoutMs),
    // Only a stand-in on this machine is plain http; Discord itself is https.
    [oauth.allowInsecureRequests]: base.startsWith("http://"),
  };

  async function readJson(response: Response, what: string): Promise<unknown> {
    if (!response.ok) throw new DiscordError(`${what}: HTTP ${response.status}`);
    return response.json().catch(() => {
      throw new DiscordError(`${what}: not JSON`);
    });
  }

  async function get(accessToken: string, path: string) {
    const response = await oauth.protectedResourceRequest(accessToken, "GET", new URL(`${base}/api${path}`), undefined, null, options);
    return readJson(response, `GET ${path}`);
  }

  return {
    cdnOrigin: new URL(cdn).origin,
    origin: new URL(base).origin,
    async startAuthorization({ redirectUri, state, scopes }) {
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const codeChallenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
      const url = new URL(server.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: scopes.join(" "),
        state,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
        prompt: "consent",
      }).toString();
      return { url: url.toString(), codeVerifier };
    },
    async signIn({ code, codeVerifier, redirectUri }) {
      try {
        const parameters = oauth.validateAuthResponse(server, client, new URLSearchParams({ code }), oauth.skipStateCheck);
        const response = await oauth.authorizationCodeGrantRequest(server, client, clientAuth, parameters, redirectUri, codeVerifier, options);
        const token = await oauth.processAuthorizationCodeResponse(server, client, response);
        const [user, guilds] = await Promise.all([get(token.access_token, "/users/@me"), get(token.access_token, "/users/@me/guilds")]);
        return { user: readUser(user), guilds: readGuilds(guilds) };
      } catch (error) {
        if (error instanceof DiscordError) throw error;
        throw new DiscordError(error instanceof Error ? `${error.name}: ${error.message}` : String(error), { cause: error });
      }
    },
    avatarUrl(user) {
      return user.avatar && HASH.test(user.avatar) ? `${cdn}/avatars/${user.id}/${user.avatar}.png?size=256` : null;
    },
    guildIconUrl(guild) {
      return discordGuildIconUrl(cdn, guild);
    },
  };
}

const SNOWFLAKE = /^[0-9]{1,20}$/;
/** An image hash on Discord's CDN (`a_` for an animated one). */
const HASH = /^(a_)?[0-9a-f]{32}$/;

/**
 * An image from Discord's CDN (a new account's avatar, fetched once to be re-encoded as our own upload): the bytes, or
 * null when the URL is not on the CDN, or it fails, is slow or too big. Nothing else is fetched: the URL comes from
 * user_metadata, which its user can write; and it goes out through outboundRequest (ADR 054): https to a public
 * address only, no redirects.
 */
export async function fetchDiscordImage(
  url: string,
  { cdnUrl, timeoutMs, outbound }: { cdnUrl: string; timeoutMs: number; outbound: OutboundPolicy },
): Promise<Uint8Array | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.origin !== new URL(cdnUrl).origin || !/^\/avatars\/[0-9]{1,20}\/(a_)?[0-9a-f]{32}\.png$/.test(target.pathname)) return null;
  try {
    // Over the limit, outboundRequest stops reading and fails: no avatar.
    const response = await outboundRequest(target, { timeoutMs, maxBytes: AVATAR_MAX_BYTES }, outbound);
    return response.status >= 200 && response.status < 300 ? new Uint8Array(response.body) : null;
  } catch {
    return null;
  }
}
const text = (value: unknown, max: number) => (typeof value === "string" && value.length > 0 ? value.slice(0, max) : null);

function readUser(body: unknown): DiscordUser {
  const user = (body ?? {}) as Record<string, unknown>;
  if (typeof user.id !== "string" || !SNOWFLAKE.test(user.id) || typeof user.username !== "string") {
    throw new DiscordError("GET /users/@me: not a user");
  }
  const email = typeof user.email === "string" && user.email.includes("@") ? user.email.normalize("NFC").trim().toLowerCase() : null;
  return {
    id: user.id,
    username: user.username.slice(0, 64),
    globalName: text(user.global_name, 64),
    avatar: text(user.avatar, 64),
    email,
    verified: user.verified === true,
  };
}

/** Discord lists at most 200 servers per page; that first page is what is kept. */
function readGuilds(body: unknown): DiscordGuild[] {
  if (!Array.isArray(body)) throw new DiscordError("GET /users/@me/guilds: not a list");
  return body.flatMap((entry) => {
    const guild = (entry ?? {}) as Record<string, unknown>;
    if (typeof guild.id !== "string" || !SNOWFLAKE.test(guild.id) || typeof guild.name !== "string") return [];
    return [{ id: guild.id, name: guild.name.slice(0, 100), icon: text(guild.icon, 64) }];
  });
}

/**
 * A server's icon on Discord's CDN (`cdnUrl`), as the browser loads it, or null when it has none or its hash is not
 * one: models build it from the stored row without a client, which exists only when Discord sign-in is on.
 */
export function discordGuildIconUrl(cdnUrl: string, guild: { id: string; icon: string | null }): string | null {
  return guild.icon && HASH.test(guild.icon) ? `${cdnUrl.replace(/\/+$/, "")}/icons/${guild.id}/${guild.icon}.png?size=64` : null;
}
