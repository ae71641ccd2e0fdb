import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { APIRequestContext, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import pg from "pg";
import { axeViolations, bearer, createUser, E2E_PASSWORD, expect, local, NEEDS, REMOTE_BASE_URL, sellerWithEarnings, test, waitForHydration } from "./fixtures";
import { waitForMail } from "./mail";
import { atDesktop, matrix } from "./matrix";

/**
 * The operators' desk's money and inquiries (ADR 072) in a browser, with JavaScript and without it, on a phone (360 px)
 * and, as @matrix repeats, a desktop (1280 px): a finance operator with an authenticator app reveals a seller's bank
 * details on /admin/payouts (the reveal found in the audit trail), then marks the payout paid with a reason; a
 * moderator answers an inquiry on /admin/inquiries and the sender receives the reply by mail.
 *
 * Roles are granted by `npm run operators` beside the running server, which opens the database itself: these flows run
 * against the suite's second server, on PostgreSQL (playwright.config.ts), as moderation.spec.ts does.
 */

const baseURL = process.env.E2E_PG_BASE_URL;
const databaseUrl = process.env.E2E_PG_DATABASE_URL;
const run = promisify(execFile);
const operators = (...args: string[]) => run(process.execPath, ["--import", "tsx", "server/operators-cli.ts", ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });

test.skip(!baseURL && !REMOTE_BASE_URL, "needs PostgreSQL (TEST_DATABASE_URL): the operators' command cannot open the embedded database the main e2e server holds");
test.use({ baseURL });

const VIEWPORTS = [
  { name: "phone", viewport: { width: 360, height: 740 } },
  { name: "desktop", viewport: { width: 1280, height: 800 } },
] as const;

const codeOf = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });

/**
 * An operator with `role`, granted by the command, signed in in the page's context with an authenticator app set up
 * (the enrolment's code leaves the session at aal2). The posts go through page.request, which shares the page's cookies:
 * signing in and 二段階認証's set-up have their own flows.
 */
async function signedInOperator(page: Page, role: "finance" | "moderator", name: string) {
  const user = await createUser(page.request, name);
  await operators("grant", user.email, role, "--reason", "e2e の運営者");
  const signedIn = await page.request.post("/login", { form: { email: user.email, password: E2E_PASSWORD, redirectTo: "/admin" }, maxRedirects: 0 });
  expect(signedIn.headers()["location"]).toBe("/admin");
  const enrolling = await (await page.request.post("/settings/security", { form: { intent: "enroll", friendlyName: "運営端末" } })).text();
  const secret = /data-secret="([A-Z2-7]+)"/.exec(enrolling)![1]!;
  const factorId = /name="factorId" value="([0-9a-f-]{36})"/.exec(enrolling)![1]!;
  const confirmed = await page.request.post("/settings/security", { form: { intent: "confirm", factorId, secret, friendlyName: "運営端末", code: codeOf(secret) } });
  expect(confirmed.status()).toBe(200);
  return user;
}

/** A seller with 1,600 earned coins who asked for 1,000 of them. */
async function requestedPayout(request: APIRequestContext) {
  const seller = await sellerWithEarnings(request, { sellerName: "出金を待つ販売者", title: "出金デスクのテスト用チケット" });
  const requested = await request.post("/api/payouts", {
    data: { coins: 1_000, bankName: "デスク銀行", branchName: "新宿支店", accountType: "ordinary", accountNumber: "2468135", accountHolder: "デスク タロウ" },
    headers: bearer(seller, crypto.randomUUID()),
  });
  expect(requested.status()).toBe(201);
  return { seller, payoutId: (await requested.json()).data.payout.id as string };
}

/** The operators' audit trail's rows about one target, read from the database the command reads. */
async function auditOf(targetId: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ kind: string; operator_label: string; reason: string | null }>("select kind, operator_label, reason from operator_audit where target_id = $1 order by id", [targetId])).rows;
  } finally {
    await client.end();
  }
}

for (const javaScript of [true, false]) {
  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`${javaScript ? "with JavaScript" : "without JavaScript"}, ${name} (${viewport.width} px)`, matrix(atDesktop(viewport), local(NEEDS.database, NEEDS.testPayments, NEEDS.mail)), () => {
      test.use({ javaScriptEnabled: javaScript, viewport });
      test.describe.configure({ timeout: 180_000 });
      const ready = async (page: Page) => {
        if (javaScript) await waitForHydration(page);
      };

      test("a finance operator reveals a seller's bank details, logged, then marks the payout paid with a reason", async ({ page, request }) => {
        const { seller, payoutId } = await requestedPayout(request);
        const operator = await signedInOperator(page, "finance", "経理の運営者");

        await page.goto("/admin/payouts");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("出金");
        await expect(page.getByRole("navigation", { name: "運営デスクのメニュー" }).getByRole("link", { name: "出金" })).toBeVisible();
        await ready(page);
        const card = page.locator(`[data-payout-id="${payoutId}"]`);
        await expect(card).toContainText(seller.displayName);
        await expect(card).toContainText("1,000コイン → 1,000円");
        await expect(card.getByTestId("desk-payout-account")).toHaveText("デスク銀行 新宿支店 普通 ****135");
        await expect(card).not.toContainText("デスク タロウ");

        await card.getByRole("button", { name: `${seller.displayName}さんの口座情報を表示` }).click();
        const shown = page.locator(`[data-payout-id="${payoutId}"]`);
        await expect(shown.getByTestId("desk-payout-account")).toHaveText("デスク銀行 新宿支店 普通 2468135");
        await expect(shown).toContainText("デスク タロウ");
        await expect(shown.getByRole("status")).toHaveText("この表示は監査ログに記録されました。画面を移動すると再び非表示になります。");
        expect(await axeViolations(page, { javaScriptEnabled: javaScript }), "axe-core with the bank details shown").toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(viewport.width);
        expect(await auditOf(payoutId)).toEqual([{ kind: "bank_details_revealed", operator_label: `desk:${operator.email}`, reason: null }]);

        await ready(page);
        await shown.getByLabel("理由・メモ（必須）").fill("11/29 振込番号 0042");
        await shown.getByRole("button", { name: "振込済みにする" }).click();
        await expect(page).toHaveURL("/admin/payouts");
        const toast = page.getByTestId("toast").filter({ hasText: "振込済みにしました" });
        await (javaScript ? expect(toast).toBeVisible() : expect(toast).toBeAttached());
        await expect(page.locator(`[data-payout-id="${payoutId}"]`)).toHaveCount(0);
        // The revealed number is gone with the response that showed it.
        await expect(page.getByText("2468135")).toHaveCount(0);
        expect((await auditOf(payoutId)).map((row) => [row.kind, row.reason])).toEqual([
          ["bank_details_revealed", null],
          ["payout_paid", "11/29 振込番号 0042"],
        ]);
        const notifications = await request.get("/api/notifications", { headers: bearer(seller) });
        expect(JSON.stringify(await notifications.json())).toContain("1,000コインの振込が完了しました");
      });

      test("a moderator answers an inquiry from the queue, and the sender receives the reply by mail", async ({ page, request }) => {
        const email = `inquirer-${Math.random().toString(16).slice(2, 10)}@example.jp`;
        const asked = `出品の方法を教えてください ${Date.now()}`;
        const form = await (await request.get("/inquiry")).text();
        const validFrom = /name="from__confirm"[^>]*value="([^"]+)"/.exec(form)![1]!;
        const sent = await request.post("/inquiry", { form: { name__confirm: "", from__confirm: validFrom, name: "問い合わせ 花子", email, category: "tickets", body: asked }, maxRedirects: 0 });
        expect(sent.headers()["location"]).toBe("/inquiry?sent=1");
        await signedInOperator(page, "moderator", "モデレーターの運営者");

        await page.goto("/admin/inquiries?status=open");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("お問い合わせ");
        await ready(page);
        await page.getByTestId("desk-inquiry").filter({ hasText: asked }).click();
        await expect(page).toHaveURL(/\/admin\/inquiries\/\d+$/);
        await expect(page.getByTestId("desk-inquiry-body")).toHaveText(asked);
        await expect(page.getByTestId("desk-inquiry-status")).toHaveText("未対応");
        await expect(page.getByText(email)).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(viewport.width);
        await ready(page);

        // A reply of spaces only passes the browser's `required` but not the server's.
        await page.getByLabel("返信内容（必須）").fill("   ");
        await page.getByRole("button", { name: "返信を送信する" }).click();
        await expect(page.getByRole("alert").filter({ hasText: "入力してください" })).toBeVisible();
        await ready(page);
        await page.getByLabel("返信内容（必須）").fill("お問い合わせありがとうございます。\nマイページの「チケット登録」から出品できます。");
        await page.getByRole("button", { name: "返信を送信する" }).click();
        const toast = page.getByTestId("toast").filter({ hasText: "返信をメールで送りました" });
        await (javaScript ? expect(toast).toBeVisible() : expect(toast).toBeAttached());
        await expect(page.getByTestId("desk-inquiry-status")).toHaveText("回答済み");
        await expect(page.getByTestId("desk-inquiry-reply")).toContainText("マイページの「チケット登録」から出品できます。");

        const mail = await waitForMail(email);
        expect(mail.subject).toBe("【GamerMatch】お問い合わせへの回答");
        expect(mail.text).toContain("問い合わせ 花子 様");
        expect(mail.text).toContain("マイページの「チケット登録」から出品できます。");
        expect(mail.text).toContain(`> ${asked}`);
        const inquiryId = /\/admin\/inquiries\/(\d+)$/.exec(page.url())![1]!;
        expect((await auditOf(inquiryId)).map((row) => row.kind)).toEqual(["inquiry_replied"]);
      });
    });
  }
}
