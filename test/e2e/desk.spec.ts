import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import sharp from "sharp";
import { createUser, E2E_PASSWORD, expect, local, NEEDS, REMOTE_BASE_URL, test, waitForHydration } from "./fixtures";
import { atDesktop, matrix } from "./matrix";

/**
 * The operators' desk (ADR 071) in a browser, with JavaScript and without it, on a phone (360 px; the desktop's 1280 px
 * is the @matrix repeat): a moderator, made by `npm run operators` beside the server, turns the second step on, opens
 * レポート from the desk's navigation, finds the reported chat picture in the queue, sees it on the report's page, and
 * hides it with a reason; the toast says so and the page no longer offers to hide it. The fixture checks every page
 * with axe-core. The command opens the database itself, so this runs against the suite's PostgreSQL server.
 */
const baseURL = process.env.E2E_PG_BASE_URL;
const databaseUrl = process.env.E2E_PG_DATABASE_URL;
const run = promisify(execFile);
const operators = (...args: string[]) => run(process.execPath, ["--import", "tsx", "server/operators-cli.ts", ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });
const codeOf = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: Date.now() + steps * 30_000 });

test.skip(!baseURL && !REMOTE_BASE_URL, "needs PostgreSQL (TEST_DATABASE_URL): the operators' command cannot open the embedded database the main e2e server holds");
test.use({ baseURL });

const VIEWPORTS = [
  { name: "phone", viewport: { width: 360, height: 740 } },
  { name: "desktop", viewport: { width: 1280, height: 800 } },
] as const;

/** A chat picture that one member sent another, reported by the other: the message's id and the upload's. */
async function reportedPicture(request: Page["request"]) {
  const [sender, reporter] = await Promise.all([createUser(request, "画像を送った人"), createUser(request, "通報した人")]);
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const room = await request.post("/api/chat/rooms", { data: { participantIds: [reporter.id], type: "DIRECT", name: null }, headers: auth(sender.token) });
  const roomId = ((await room.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
  const buffer = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 220, g: 60, b: 60 } } }).jpeg().toBuffer();
  const uploaded = await request.post("/api/uploads", { multipart: { type: "chat", file: { name: "photo.jpg", mimeType: "image/jpeg", buffer } }, headers: auth(sender.token) });
  expect(uploaded.status()).toBe(201);
  const uploadId = ((await uploaded.json()) as { data: { id: string } }).data.id;
  const sent = await request.post("/api/chat/messages", { data: { roomId, messageType: "IMAGE", content: uploadId, metadata: { caption: "ここに振り込んで" } }, headers: auth(sender.token) });
  expect(sent.status()).toBe(201);
  const messageId = String(((await sent.json()) as { data: { message: { id: number } } }).data.message.id);
  const note = `外部での支払いの誘い ${Date.now()}`;
  const reported = await request.post("/api/reports", { data: { targetType: "chat_message", targetId: messageId, reason: "off_platform_payment", note }, headers: auth(reporter.token) });
  expect(reported.status()).toBe(201);
  return { messageId, uploadId, note };
}

for (const javaScript of [true, false]) {
  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`${javaScript ? "with JavaScript" : "without JavaScript"}, ${name} (${viewport.width} px)`, matrix(atDesktop(viewport), local(NEEDS.database)), () => {
      test.use({ javaScriptEnabled: javaScript, viewport });
      test.describe.configure({ timeout: 180_000 });

      test("a moderator with an authenticator app decides a reported picture from the desk's queue", async ({ page }) => {
        const ready = async () => {
          if (javaScript) await waitForHydration(page);
        };
        const moderator = await createUser(page.request, "運営のモデレーター");
        await operators("grant", moderator.email, "moderator", "--reason", "e2e の運営者");
        const { messageId, uploadId, note } = await reportedPicture(page.request);

        // Signed in with the password only: the desk asks for an authenticator app first.
        const signedIn = await page.request.post("/login", { form: { email: moderator.email, password: E2E_PASSWORD, redirectTo: "/admin" }, maxRedirects: 0 });
        expect(signedIn.headers()["location"]).toBe("/admin");
        await page.goto("/admin");
        await expect(page).toHaveURL("/admin/two-step");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("二段階認証を設定してください");
        await page.getByRole("link", { name: "セキュリティ設定で認証アプリを登録する" }).click();
        await expect(page).toHaveURL("/settings/security");
        await ready();
        await page.getByRole("button", { name: "認証アプリを設定する" }).click();
        const secret = (await page.getByTestId("totp-secret").getAttribute("data-secret"))!;
        await page.getByLabel("確認コード（6桁）").fill(codeOf(secret));
        await page.getByRole("button", { name: "確認して有効にする" }).click();
        await expect(page.getByTestId("two-step-status")).toHaveText("有効");

        // The desk: its navigation shows the moderator's pages only.
        await page.goto("/admin");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("運営デスク");
        const nav = page.getByRole("navigation", { name: "運営デスクのメニュー" });
        await expect(nav.getByRole("link", { name: /レポート/ })).toBeVisible();
        await expect(nav.getByRole("link", { name: "監査ログ" })).toHaveCount(0);
        await expect(nav.getByRole("link", { name: "出金" })).toHaveCount(0);
        await ready();
        await nav.getByRole("link", { name: /レポート/ }).click();
        await expect(page).toHaveURL("/admin/reports");
        const row = page.getByTestId("queue-row").filter({ hasText: note });
        await expect(row).toBeVisible();
        await row.getByRole("link", { name: "詳細を見る" }).click();
        await expect(page).toHaveURL(`/admin/reports/chat_message/${messageId}`);

        // The picture as the room saw it, through the desk's own path.
        const picture = page.getByTestId("reported-picture");
        await expect(picture).toHaveAttribute("src", `/admin/media/${uploadId}`);
        await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
        await expect(page.getByText("ここに振り込んで")).toBeVisible();
        await expect(page.getByText(note)).toBeVisible();
        if (viewport.width === 360) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

        await ready();
        await page.getByLabel("理由（監査ログに残ります。本人・通報者には伝わりません）").fill("外部取引への誘導");
        await page.getByRole("button", { name: "非表示にする" }).click();
        await expect(page.getByText("非表示にしました").first()).toBeVisible();
        await expect(page).toHaveURL(`/admin/reports/chat_message/${messageId}`);
        await expect(page.getByRole("button", { name: "非表示にする" })).toHaveCount(0);
        await expect(page.getByText(/に非表示/)).toBeVisible();
      });
    });
  }
}
