import { afterAll, beforeAll } from "vitest";
import { signAnonKey } from "../../app/infra/auth/jwt";
import { startTestServer, type TestServer } from "./server";

/**
 * An app configured for hosted Supabase, for a test file: `auth`, a server whose embedded auth answers as GoTrue does,
 * and `app`, a server whose SUPABASE_URL is that one (its anon key and JWT secret the auth server's), so the app takes
 * its hosted path over the network. Started before the file's tests, closed after them.
 */
export function hostedSupabaseServers() {
  const servers = {} as { auth: TestServer; app: TestServer };
  beforeAll(async () => {
    servers.auth = await startTestServer({ seed: false });
    const secret = servers.auth.config.SUPABASE_JWT_SECRET!;
    servers.app = await startTestServer({ seed: false, env: { SUPABASE_URL: servers.auth.url, SUPABASE_ANON_KEY: await signAnonKey(secret), SUPABASE_JWT_SECRET: secret } });
  });
  afterAll(async () => {
    await servers.app?.close();
    await servers.auth?.close();
  });
  return servers;
}
