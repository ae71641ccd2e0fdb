import { createAuthService, type AuthService, type LocalAuthHandler } from "../../app/infra/auth/session";
import type { AppConfig } from "../../app/infra/config";
import type { DatabaseHandle } from "../../app/infra/db";
import { createDiscordClient, type DiscordClient } from "../../app/infra/discord";
import { createLocalAuthHandler } from "../auth/api";

export interface AppAuth {
  auth: AuthService;
  /** The embedded auth server (/auth/v1), when there is no SUPABASE_URL. */
  localAuth: LocalAuthHandler | undefined;
  /** Discordでログイン on the embedded auth (ADR 039); with hosted Supabase, Discord is configured there. */
  discord: DiscordClient | undefined;
}

/** Who a request or a socket is: hosted Supabase, or the embedded auth server made here and handed to the session module. */
export async function createAppAuth({
  config,
  database,
  clock,
  siteUrl,
  onSessionsEnded,
}: {
  config: AppConfig;
  database: DatabaseHandle;
  clock: (() => Date) | undefined;
  siteUrl: () => string;
  /** Sessions that end (a new password, sign-out everywhere) close their sockets. */
  onSessionsEnded: (userId: string, ending: { keepSessionId?: string }) => Promise<void>;
}): Promise<AppAuth> {
  const discord =
    !config.SUPABASE_URL && config.DISCORD_CLIENT_ID && config.DISCORD_CLIENT_SECRET
      ? createDiscordClient({
          clientId: config.DISCORD_CLIENT_ID,
          clientSecret: config.DISCORD_CLIENT_SECRET,
          baseUrl: config.DISCORD_URL,
          cdnUrl: config.DISCORD_CDN_URL,
          timeoutMs: config.DISCORD_TIMEOUT_MS,
        })
      : undefined;
  const localAuth = config.SUPABASE_URL
    ? undefined
    : createLocalAuthHandler({
        db: database.db,
        jwtSecret: config.SUPABASE_JWT_SECRET!,
        factorSecretKey: config.MFA_SECRET_KEY,
        confirmEmail: config.AUTH_CONFIRM_EMAIL,
        clock,
        discord,
        siteUrl,
        redirectUrls: config.AUTH_REDIRECT_URLS,
        onSessionsEnded,
      });
  const auth = await createAuthService({ config, db: database.db, localAuth });
  return { auth, localAuth, discord };
}
