import type { APIRequestContext } from "@playwright/test";
import { axeViolations, createUser, expect, login, test, waitForHydration } from "./fixtures";

/**
 * Reports (通報, docs/product.md#trust-and-safety): a post reported with JavaScript through the dialog (checked with axe, focus kept inside
 * and given back) and without it through the /report page; both confirm, and the report is there in GET /api/reports.
 */

type User = Awaited<ReturnType<typeof createUser>>;
const auth = (user: User) => ({ Authorization: `Bearer ${user.token}` });

/** An author with a public post, and the reporter; the post is the newest on the author's profile. */
async function scene(request: APIRequestContext, content: string) {
  const author = await createUser(request, "通報される投稿者");
  const reporter = await createUser(request, "通報する人");
  const created = await request.post("/api/posts/create", { data: { content, imageUrl: null, isPublic: true }, headers: auth(author) });
  expect(created.status()).toBe(201);
  const postId = ((await created.json()) as { post: { id: string } }).post.id;
  return { author, reporter, postId };
}

async function reportsOf(request: APIRequestContext, user: User) {
  const response = await request.get("/api/reports", { headers: auth(user) });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { reports: Array<{ targetType: string; targetId: string; reason: string; note: string; status: string }> } }).data.reports;
}

test("with JavaScript: 「通報する」 on a post opens the dialog, which sends the report and confirms it", async ({ page, request }) => {
  const { author, reporter, postId } = await scene(request, "外部で直接取引しましょう");
  await login(page, reporter.email, `/u/${author.id}/posts`);
  await waitForHydration(page);
  // The members' overlays turn report links into the dialog once loaded (before, a click opens the /report page).
  await expect(page.locator("html")).toHaveAttribute("data-report-dialogs", "ready");
  const post = page.getByRole("article", { name: author.displayName });
  const link = post.getByRole("link", { name: `${author.displayName}さんの投稿を通報する` });
  await link.click();

  const dialog = page.getByRole("dialog", { name: "投稿を通報する" });
  await expect(dialog).toBeVisible();
  expect(page.url()).toContain(`/u/${author.id}/posts`);
  expect(await axeViolations(page), "the open dialog").toEqual([]);
  // Sent without a reason: the schema's words, and nothing filed.
  await dialog.getByRole("button", { name: "通報を送信する" }).click();
  await expect(dialog.getByText("選択してください")).toBeVisible();
  // Focus stays in the modal dialog: tabbing from its last control does not reach the page behind it.
  await dialog.getByLabel("外部での支払い・直接取引の誘い").check();
  await dialog.getByLabel("詳しい内容（任意）").fill("銀行振込に誘われました");
  for (let step = 0; step < 12; step += 1) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement) || document.activeElement === document.body)).toBe(true);
  }
  await dialog.getByRole("button", { name: "通報を送信する" }).click();
  await expect(dialog.getByRole("status")).toHaveText("通報を受け付けました");
  expect(await axeViolations(page), "the confirmation").toEqual([]);

  // Closing gives the focus back to the link that opened it.
  await dialog.getByRole("button", { name: "閉じる" }).click();
  await expect(dialog).toBeHidden();
  await expect(link).toBeFocused();

  expect(await reportsOf(request, reporter)).toEqual([
    expect.objectContaining({ targetType: "post", targetId: postId, reason: "off_platform_payment", note: "銀行振込に誘われました", status: "open" }),
  ]);
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("「通報する」 is a link to the report page, whose form files the report and comes back with a toast", async ({ page, request }) => {
    const { author, reporter, postId } = await scene(request, "振込でお願いします");
    await login(page, reporter.email, `/u/${author.id}/posts`);
    await page.getByRole("article", { name: author.displayName }).getByRole("link", { name: `${author.displayName}さんの投稿を通報する` }).click();
    await expect(page).toHaveURL(/\/report\?type=post&id=/);
    await expect(page.getByRole("heading", { level: 1, name: "投稿を通報する" })).toBeVisible();
    expect(await axeViolations(page, { javaScriptEnabled: false }), "the report page").toEqual([]);

    await page.getByLabel("スパム・宣伝").check();
    await page.getByLabel("詳しい内容（任意）").fill("同じ宣伝を何度も投稿しています");
    await page.getByRole("button", { name: "通報を送信する" }).click();
    await expect(page).toHaveURL(`/u/${author.id}/posts`);
    await expect(page.getByText("通報を受け付けました")).toBeVisible();

    expect(await reportsOf(request, reporter)).toEqual([expect.objectContaining({ targetType: "post", targetId: postId, reason: "spam", note: "同じ宣伝を何度も投稿しています", status: "open" })]);
    // The history page lists it.
    await page.goto("/settings/reports");
    await expect(page.getByTestId("report")).toContainText("受付済み");
    await expect(page.getByTestId("report")).toContainText("スパム・宣伝");
  });
});
