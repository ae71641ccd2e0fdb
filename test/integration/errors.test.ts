import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.close();
});

it("a loader that throws renders the generic error page with status 500", async () => {
  // Break the table the home page reads, so its loader throws as any unexpected failure would.
  await app.database.db.schema.alterTable("games").renameTo("games_gone").execute();
  try {
    const response = await app.request("/");
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("エラーが発生しました");
    expect(html).toContain("問題が発生しました。時間をおいて再度お試しください。");
    expect(html).toContain("前のページに戻る");
    expect(html).toContain('href="/"');
    expect(html).toContain("<title>エラーが発生しました - GamerMatch - ゲーマーマッチングプラットフォーム</title>");
    // No internals leak into the page.
    expect(html).not.toContain("games_gone");
    expect(html).not.toContain('relation "games"');
  } finally {
    await app.database.db.schema.alterTable("games_gone").renameTo("games").execute();
  }
});

it("/healthz answers 503 once the database is gone", async () => {
  await app.database.close();
  const response = await app.request("/healthz");
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({ ok: false, db: "unavailable" });
});
