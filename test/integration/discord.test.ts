import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

// Hosted Supabase is out of reach here; building the authorize URL needs no network, and that is what is checked.
const SUPABASE_URL = "http://127.0.0.1:9";

describe("with hosted Supabase configured", () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer({ seed: false, env: { SUPABASE_URL, SUPABASE_ANON_KEY: "anon-".padEnd(40, "k") } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("offers Discord sign-in and sends the browser to Supabase's authorize URL with PKCE and the three scopes", async () => {
    expect(await (await app.request("/login")).text()).toContain("Discordでログイン");
    const response = await app.request("/auth/discord", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`${SUPABASE_URL}/auth/v1/authorize`);
    expect(location.searchParams.get("provider")).toBe("discord");
    expect(location.searchParams.get("scopes")).toBe("identify email guilds");
    expect(location.searchParams.get("redirect_to")).toBe(`${app.url}/auth/callback?next=%2F`);
    expect(location.searchParams.get("code_challenge_method")).toBe("s256");
    expect(location.searchParams.get("code_challenge")).toBeTruthy();
    // The PKCE verifier waits in a cookie for the callback.
    expect(response.headers.getSetCookie().some((cookie) => cookie.includes("code-verifier"))).toBe(true);
    expect(response.headers.get("content-security-policy")).toContain(`form-action 'self' ${SUPABASE_URL} https://discord.com`);
  });

  it("serves no local auth endpoints", async () => {
    expect((await app.request("/auth/v1/signup", { method: "POST", body: "{}" })).status).toBe(404);
  });
});

describe("in local mode", () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer({ seed: false });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("has no Discord sign-in", async () => {
    expect(await (await app.request("/login")).text()).not.toContain("Discordでログイン");
    expect((await app.request("/auth/discord", { method: "POST" })).status).toBe(404);
  });
});
