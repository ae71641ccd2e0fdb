import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createUser, expect, local, login, NEEDS, REMOTE_BASE_URL, test } from "./fixtures";

/**
 * The operators' side of a report (docs/product.md#trust-and-safety): a post reported without JavaScript, hidden by `npm run moderation`
 * run beside the live server, gone for the reporter, marked for its author, and the reporter told. The command opens
 * the database itself, so this runs against the suite's second server on PostgreSQL (playwright.config.ts).
 */
const baseURL = process.env.E2E_PG_BASE_URL;
const databaseUrl = process.env.E2E_PG_DATABASE_URL;
const run = promisify(execFile);
const moderation = (...args: string[]) =>
  run(process.execPath, ["--import", "tsx", "server/moderation-cli.ts", ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });

// Against a deployment (E2E_BASE_URL) the @local rule says why instead.
test.skip(!baseURL && !REMOTE_BASE_URL, "needs PostgreSQL (TEST_DATABASE_URL): the operators' command cannot open the embedded database the main e2e server holds");
test.use({ baseURL, javaScriptEnabled: false });

test("a reported post is hidden by the operators' command: gone for others, marked for its author, the reporter notified", local(NEEDS.database), async ({ page, request, browser }) => {
  const author = await createUser(request, "非表示にされる人");
  const reporter = await createUser(request, "通報した人");
  const content = `外部で直接取引しましょう ${Date.now()}`;
  const created = await request.post("/api/posts/create", { data: { content, imageUrl: null, isPublic: true }, headers: { Authorization: `Bearer ${author.token}` } });
  expect(created.status()).toBe(201);

  await login(page, reporter.email, `/u/${author.id}/posts`);
  await expect(page.getByText(content)).toBeVisible();
  await page.getByRole("article", { name: author.displayName }).getByRole("link", { name: `${author.displayName}さんの投稿を通報する` }).click();
  await page.getByLabel("外部での支払い・直接取引の誘い").check();
  await page.getByRole("button", { name: "通報を送信する" }).click();
  await expect(page.getByText("通報を受け付けました")).toBeVisible();

  const reports = await request.get("/api/reports", { headers: { Authorization: `Bearer ${reporter.token}` } });
  const [report] = ((await reports.json()) as { data: { reports: Array<{ id: number }> } }).data.reports;

  // The operator, from a shell beside the running server.
  const listed = await moderation("list");
  expect(listed.stdout).toContain(String(report!.id));
  const hidden = await moderation("hide", String(report!.id), "--reason", "外部取引への誘導");
  // A failing command rejects; this one says what it did.
  expect(hidden.stdout).toMatch(/処分 #\d+/);

  await page.goto(`/u/${author.id}/posts`);
  await expect(page.getByText(content)).toHaveCount(0);
  await page.goto("/notifications");
  await expect(page.getByText("通報への対応について")).toBeVisible();
  await expect(page.getByText("ご報告いただいた内容を確認し、対応しました。")).toBeVisible();

  // Its author still sees it, marked.
  const authorContext = await browser.newContext({ baseURL, javaScriptEnabled: false, locale: "ja-JP", timezoneId: "Asia/Tokyo" });
  const authorPage = await authorContext.newPage();
  await login(authorPage, author.email, `/u/${author.id}/posts`);
  const post = authorPage.getByRole("article").filter({ hasText: content });
  await expect(post).toBeVisible();
  await expect(post.getByText("運営により非表示").first()).toBeVisible();
  await authorContext.close();
});
