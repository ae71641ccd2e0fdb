import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";
import { connectSocket } from "../support/sockets";

/**
 * The browser holds no auth client (ADR 024): its calls carry the session cookies, and its socket
 * authenticates with the access token the page hands out or, once that expired, GET /api/auth/token's.
 */
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

describe("the browser's session without an auth client", () => {
  it("GET /api/auth/token gives a signed-out caller 401 in the envelope", async () => {
    const response = await app.request("/api/auth/token");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false, error: { code: "unauthorized", message: "認証が必要です" } });
  });

  it("answers the cookie session's access token, which the socket authenticates with", async () => {
    const member = await createBrowserMember(app, "クッキー");
    const response = await member.page("/api/auth/token");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { accessToken } = (await response.json()) as { accessToken: string };
    const claims = JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as { sub: string };
    expect(claims.sub).toBe(member.id);
    const socket = await connectSocket(app.url, accessToken);
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it("an /api call with the cookies alone is the member's", async () => {
    const member = await createBrowserMember(app, "残高");
    const response = await member.page("/api/coins/balance");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, totalBalance: 0 });
  });

  it("after sign-out the token no longer opens a socket, and no new one is handed out", async () => {
    const member = await createBrowserMember(app, "退出");
    const { accessToken } = (await (await member.page("/api/auth/token")).json()) as { accessToken: string };
    const signedOut = await member.page("/logout", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
    expect(signedOut.status).toBe(302);
    await expect(connectSocket(app.url, accessToken)).rejects.toThrow("unauthorized");
    expect((await member.page("/api/auth/token")).status).toBe(401);
  });
});
