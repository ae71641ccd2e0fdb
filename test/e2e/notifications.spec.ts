import { createUser, expect, login, test, waitForHydration } from "./fixtures";

/** Someone opens a DIRECT chat with the user: the server notifies the user (a real producer, PRODUCT §7). */
async function openChatWith(request: import("@playwright/test").APIRequestContext, from: { token: string }, to: { id: string }) {
  const response = await request.post("/api/chat/rooms", {
    data: { participantIds: [to.id], type: "DIRECT", name: null },
    headers: { Authorization: `Bearer ${from.token}` },
  });
  expect(response.status()).toBe(201);
}

test("a live notification shows a toast for 3 seconds and bumps the bell", async ({ page, request }) => {
  const me = await createUser(request, "ミナト");
  const friend = await createUser(request, "ソラ");
  await login(page, me.email, "/");
  await waitForHydration(page);
  await expect(page.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
  // The welcome notification is already there.
  const bell = page.getByRole("banner").getByRole("link", { name: /通知/ });
  await expect(bell).toHaveAccessibleName("1件の未読通知");

  await openChatWith(request, friend, me);
  const toast = page.getByTestId("toast").filter({ hasText: "ソラさんがチャットを始めました" });
  await expect(toast).toBeVisible();
  const shownAt = Date.now();
  await expect(bell).toHaveAccessibleName("2件の未読通知");
  await expect(page.getByTestId("notification-count")).toHaveText("2");
  await expect(toast).toBeHidden({ timeout: 6_000 });
  const visibleFor = Date.now() - shownAt;
  expect(visibleFor).toBeGreaterThan(2_000);
  expect(visibleFor).toBeLessThan(4_500);

  // The bell leads to the list, where the notification links to the new room.
  await bell.click();
  await expect(page).toHaveURL("/notifications");
  await page.getByRole("link", { name: /ソラさんがチャットを始めました/ }).click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
});

test("with JavaScript, すべて既読にする marks all read through the API and clears the bell", async ({ page, request }) => {
  const me = await createUser(request, "ハル");
  await openChatWith(request, await createUser(request, "レン"), me);
  await login(page, me.email, "/notifications");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: /通知/ })).toContainText("未読2件");

  await page.getByRole("button", { name: "すべて既読にする" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "すべての通知を既読にしました" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /通知/ })).not.toContainText("未読");
  await expect(page.getByRole("banner").getByRole("link", { name: /通知/ })).toHaveAccessibleName("通知");
  await expect(page.getByTestId("unread-dot")).toHaveCount(0);
});

test.describe("when marking read fails", () => {
  test.use({ allowedConsoleError: /status of 503/ });

  test("the list stays as it was and says 処理に失敗しました", async ({ page, request }) => {
    const me = await createUser(request, "カイ");
    await login(page, me.email, "/notifications");
    await waitForHydration(page);
    await page.route("**/api/notifications", (route) =>
      route.request().method() === "PATCH" ? route.fulfill({ status: 503, body: "" }) : route.continue(),
    );
    await page.getByRole("button", { name: "すべて既読にする" }).click();
    await expect(page.getByRole("alert")).toHaveText("処理に失敗しました");
    await expect(page.getByTestId("unread-dot")).toHaveCount(1);
    await expect(page.getByRole("heading", { name: /通知/ })).toContainText("未読1件");
  });
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("/notifications lists and すべて既読にする works as a plain form, with its toast", async ({ page, request }) => {
    const me = await createUser(request, "ユウ");
    await openChatWith(request, await createUser(request, "アオイ"), me);
    await login(page, me.email, "/notifications");
    await expect(page.getByRole("list", { name: "通知一覧" })).toContainText("アオイさんがチャットを始めました");
    await expect(page.getByRole("list", { name: "通知一覧" })).toContainText("GamerMatchへようこそ！");
    await expect(page.getByTestId("unread-dot")).toHaveCount(2);
    await expect(page.getByRole("banner").getByRole("link", { name: /通知/ })).toHaveAccessibleName("2件の未読通知");

    await page.getByRole("button", { name: "すべて既読にする" }).click();
    await expect(page).toHaveURL("/notifications");
    const toast = page.getByTestId("toast").filter({ hasText: "すべての通知を既読にしました" });
    await expect(toast).toBeVisible();
    await expect(page.getByTestId("unread-dot")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "すべて既読にする" })).toHaveCount(0);
    // No script removes it: the CSS animation hides it after 3 seconds.
    await expect(toast).toBeHidden({ timeout: 6_000 });
  });
});
