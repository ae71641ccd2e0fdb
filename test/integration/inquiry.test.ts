import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ seed: false });
});
afterAll(async () => {
  await app?.close();
});

/** The form's hidden honeypot fields, as a browser would send them back. */
async function honeypotFields() {
  const html = await (await app.request("/inquiry")).text();
  const validFrom = /name="from__confirm"[^>]*value="([^"]+)"/.exec(html)?.[1];
  expect(validFrom).toBeTruthy();
  return { name__confirm: "", from__confirm: validFrom! };
}

function post(fields: Record<string, string>) {
  return app.request("/inquiry", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

const valid = { name: "山田 太郎", email: "taro@example.jp", category: "coins", body: "コインの購入について質問があります。" };
const countInquiries = async () =>
  (await app.database.db.selectFrom("inquiries").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n;

describe("/inquiry as a plain HTML form", () => {
  it("stores a valid inquiry and redirects to the thank-you state", async () => {
    const response = await post({ ...(await honeypotFields()), ...valid });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/inquiry?sent=1");
    const stored = await app.database.db.selectFrom("inquiries").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(stored).toMatchObject(valid);
    const page = await (await app.request("/inquiry?sent=1")).text();
    expect(page).toContain("お問い合わせを受け付けました");
  });

  it("answers 400 with Japanese field errors and stores nothing", async () => {
    const before = await countInquiries();
    const response = await post({
      ...(await honeypotFields()),
      name: "   ",
      email: "not-an-email",
      category: "bogus",
      body: "あ".repeat(2001),
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("入力してください");
    expect(html).toContain("メールアドレスの形式が正しくありません");
    expect(html).toContain("選択肢から選んでください");
    expect(html).toContain("2000文字以内で入力してください");
    // The form keeps what was typed.
    expect(html).toContain('value="not-an-email"');
    expect(await countInquiries()).toBe(before);
  });

  it("asks for a category when none is chosen", async () => {
    const response = await post({ ...(await honeypotFields()), ...valid, category: "" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("選択してください");
  });

  it("refuses a bot that filled the honeypot or dropped its timestamp, storing nothing", async () => {
    const before = await countInquiries();
    const filled = await post({ ...(await honeypotFields()), name__confirm: "spam", ...valid });
    expect(filled.status).toBe(400);
    const forged = await post({ name__confirm: "", from__confirm: "forged", ...valid });
    expect(forged.status).toBe(400);
    const bare = await post(valid);
    expect(bare.status).toBe(400);
    expect(await forged.text()).toContain("入力内容を確認してください");
    expect(await countInquiries()).toBe(before);
  });
});
