import { axeViolations, createUser, expect, login, test, waitForHydration } from "./fixtures";

// The off-platform payment warning (docs/product.md#trust-and-safety): asked before sending, still sent once confirmed.
const LURE = "手数料かからないので ＰａｙＰａｙ で送金してください";
const WARNING = "サイト外での支払いのお願いではありませんか？";

async function roomWithFriend(request: import("@playwright/test").APIRequestContext, name: string) {
  const me = await createUser(request, name);
  const friend = await createUser(request, "取引相手");
  const room = await request.post("/api/chat/rooms", {
    data: { participantIds: [friend.id], type: "DIRECT", name: null },
    headers: { Authorization: `Bearer ${me.token}` },
  });
  return { me, roomId: (await room.json()).data.chatRoom.id as string };
}

test("with JavaScript: the chat composer warns before sending, やめる keeps the text, このまま送信する sends it", async ({ page, request }) => {
  const { me, roomId } = await roomWithFriend(request, "警告を見る人");
  await login(page, me.email, `/chat/${roomId}`);
  await waitForHydration(page);
  const list = page.getByRole("list", { name: "メッセージ一覧" });
  const composer = page.getByLabel("メッセージ", { exact: true });

  await composer.fill(LURE);
  await page.getByRole("button", { name: "送信", exact: true }).click();
  const warning = page.getByRole("alertdialog", { name: WARNING });
  await expect(warning).toBeVisible();
  await expect(warning.getByRole("button", { name: "やめる" })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await warning.getByRole("button", { name: "やめる" }).click();
  await expect(warning).toBeHidden();
  await expect(composer).toHaveValue(LURE);
  await expect(list).not.toContainText("送金してください");

  await page.getByRole("button", { name: "送信", exact: true }).click();
  await page.getByRole("alertdialog", { name: WARNING }).getByRole("button", { name: "このまま送信する" }).click();
  await expect(list).toContainText("送金してください");
  await expect(composer).toHaveValue("");
  // Ordinary talk goes without a question.
  await composer.fill("振り返りしましょう");
  await page.getByRole("button", { name: "送信", exact: true }).click();
  await expect(list).toContainText("振り返りしましょう");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  // Shown at once while it is being sent; reloaded only once it is stored (「送信中…」 gone).
  await expect(list.getByText("送信中…")).toHaveCount(0);
  await page.reload();
  await expect(list.getByRole("listitem")).toHaveCount(2);
});

test("with JavaScript: while the first message waits for the check, a second tap sends nothing and what is typed next stays", async ({ page, request }) => {
  const { me, roomId } = await roomWithFriend(request, "続けて打つ人");
  // The check's module (loaded with the first message, not with the room) held back, as on a slow connection.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const requested = page.waitForRequest(/\/assets\/off-platform-[\w-]{8}\.js$/);
  await page.route(/\/assets\/off-platform-[\w-]{8}\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await login(page, me.email, `/chat/${roomId}`);
  await waitForHydration(page);
  const list = page.getByRole("list", { name: "メッセージ一覧" });
  const composer = page.getByLabel("メッセージ", { exact: true });
  const send = page.getByRole("button", { name: "送信", exact: true });

  await composer.fill("一通目です");
  await send.click();
  await requested;
  await send.click();
  await composer.fill("二通目を書いています");
  release();
  await expect(list.getByRole("listitem").filter({ hasText: "一通目です" })).toHaveCount(1);
  await expect(composer).toHaveValue("二通目を書いています");
  await send.click();
  await expect(list.getByRole("listitem").filter({ hasText: "二通目を書いています" })).toHaveCount(1);
  await expect(composer).toHaveValue("");
  await expect(list.getByText("送信中…")).toHaveCount(0);
  await page.reload();
  await expect(list.getByRole("listitem")).toHaveCount(2);
});

test("with JavaScript: the new post dialog warns before publishing", async ({ page, request }) => {
  const me = await createUser(request, "投稿で警告を見る人");
  await login(page, me.email, "/feed");
  await waitForHydration(page);
  await page.getByRole("link", { name: "投稿する", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "新しい投稿" });
  await dialog.getByLabel("投稿内容").fill("直接取引しませんか？ 振込でお願いします");
  await dialog.getByRole("button", { name: "投稿する", exact: true }).click();
  const warning = page.getByRole("alertdialog", { name: WARNING });
  await expect(warning).toBeVisible();
  await warning.getByRole("button", { name: "このまま送信する" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("直接取引しませんか？ 振込でお願いします")).toBeVisible();
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the room's form answers with a confirmation page whose button sends the message", async ({ page, request }) => {
    const { me, roomId } = await roomWithFriend(request, "確認ページを見る人");
    await login(page, me.email, `/chat/${roomId}`);
    await page.getByLabel("メッセージ", { exact: true }).fill(LURE);
    await page.getByRole("button", { name: "送信", exact: true }).click();
    const confirmation = page.getByTestId("off-platform-confirmation");
    await expect(confirmation.getByRole("heading", { name: WARNING })).toBeVisible();
    await expect(confirmation.getByTestId("off-platform-quote")).toHaveText(LURE);
    await expect(page.getByRole("list", { name: "メッセージ一覧" })).not.toContainText("送金してください");
    expect(await axeViolations(page, { javaScriptEnabled: false })).toEqual([]);
    await confirmation.getByRole("button", { name: "このまま送信する" }).click();
    await expect(page).toHaveURL(`/chat/${roomId}`);
    await expect(page.getByTestId("off-platform-confirmation")).toHaveCount(0);
    await expect(page.getByRole("list", { name: "メッセージ一覧" })).toContainText("送金してください");
  });

  test("the new post form answers with the warning, and posting again publishes it", async ({ page, request }) => {
    const me = await createUser(request, "フォームで警告を見る人");
    await login(page, me.email, "/posts/new");
    await page.getByLabel("投稿内容").fill("Amazonギフト券で払ってください");
    await page.getByRole("button", { name: "投稿する", exact: true }).click();
    await expect(page.getByTestId("off-platform-confirmation").getByRole("heading", { name: WARNING })).toBeVisible();
    await expect(page.getByLabel("投稿内容")).toHaveValue("Amazonギフト券で払ってください");
    await page.getByRole("button", { name: "このまま送信する", exact: true }).click();
    await expect(page).toHaveURL("/feed");
    await expect(page.getByText("Amazonギフト券で払ってください")).toBeVisible();
  });
});
