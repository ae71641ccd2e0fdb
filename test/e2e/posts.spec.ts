import sharp from "sharp";
import { axeViolations, createUser, expect, login, test, waitForHydration } from "./fixtures";

/** Posts with an image (the dialog and its plain page), the feed, the gallery, and footprints. */

/** A PNG of the given size, as a file chooser hands it over. */
async function pngFile(name: string, width: number, height: number, background = "#7c3aed") {
  const buffer = await sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
  return { name, mimeType: "image/png", buffer };
}

test("with JavaScript: the dialog previews the image, refuses a file that is not one, and the post appears on the feed and in the gallery", async ({ page, request }) => {
  test.slow();
  const me = await createUser(request, "ダイアログで投稿する人");
  await login(page, me.email, "/feed");
  await waitForHydration(page);
  await page.getByRole("link", { name: "投稿する", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "新しい投稿" });
  await expect(dialog).toBeVisible();
  const send = dialog.getByRole("button", { name: "投稿する", exact: true });
  await expect(send).toBeDisabled();

  // The post-type validator: a type the server does not take is the alert at once.
  await dialog.getByLabel(/画像/).setInputFiles({ name: "page.html", mimeType: "text/html", buffer: Buffer.from("<html><script>alert(1)</script></html>") });
  await expect(dialog.getByRole("alert")).toHaveText("入力内容を確認してください");
  // A file that claims to be a PNG but is not one passes the browser's check; the server refuses it with the same alert.
  await dialog.getByLabel(/画像/).setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>") });
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await send.click();
  await expect(dialog.getByRole("alert")).toHaveText("入力内容を確認してください");

  await dialog.getByLabel(/画像/).setInputFiles(await pngFile("clip.png", 640, 360));
  await expect(dialog.getByTestId("post-image-preview")).toBeVisible();
  await dialog.getByLabel("投稿内容").fill("  新しいスキンを手に入れた！\n今夜一緒に遊べる人いますか？  ");
  await expect(dialog.getByText("28/500")).toBeVisible();
  expect(await axeViolations(page), "the open dialog").toEqual([]);
  await send.click();
  // The toast leaves after 3 s: watched for from the click on, beside the dialog closing.
  const toast = expect(page.getByTestId("toast").filter({ hasText: "投稿しました" })).toBeVisible();
  await expect(dialog).toBeHidden();
  await toast;

  const mine = page.getByTestId("post").filter({ hasText: "新しいスキンを手に入れた！" }).first();
  await expect(mine).toContainText("今夜一緒に遊べる人いますか？");
  const image = mine.getByRole("img", { name: "ダイアログで投稿する人さんの投稿画像" });
  await expect(image).toHaveAttribute("width", "640");
  await expect(image).toHaveAttribute("height", "360");
  await expect(image).toHaveAttribute("loading", "lazy");
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);

  await page.goto(`/u/${me.id}/gallery`);
  const thumbnail = page.getByRole("list").getByRole("link").first();
  await expect(thumbnail.getByRole("img")).toBeVisible();
  await thumbnail.click();
  await expect(page.getByRole("figure", { name: "画像の詳細" })).toContainText("新しいスキンを手に入れた！");
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the 投稿する link opens the plain form, which posts the text and the image in one POST", async ({ page, request }) => {
    test.slow();
    const me = await createUser(request, "フォームで投稿する人");
    await login(page, me.email, "/feed");
    await page.getByRole("link", { name: "投稿する", exact: true }).click();
    await expect(page).toHaveURL("/posts/new");
    await page.getByRole("button", { name: "投稿する", exact: true }).click();
    await expect(page.getByText("テキストか画像のどちらかを入力してください")).toBeVisible();
    await page.getByLabel("投稿内容").fill("フォームからの投稿です");
    await page.getByLabel(/画像/).setInputFiles(await pngFile("form.png", 300, 200, "#f59e0b"));
    await page.getByRole("button", { name: "投稿する", exact: true }).click();
    await expect(page).toHaveURL("/feed");
    await expect(page.getByTestId("toast")).toHaveText(/投稿しました/);
    const mine = page.getByTestId("post").filter({ hasText: "フォームからの投稿です" }).first();
    await expect(mine.getByRole("img", { name: "フォームで投稿する人さんの投稿画像" })).toHaveAttribute("width", "300");
    await page.goto(`/u/${me.id}/gallery`);
    await expect(page.getByRole("list").getByRole("img")).toHaveCount(1);
  });

  test("a visit to a profile leaves a footprint the other account sees", async ({ browser, request }) => {
    const visitor = await createUser(request, "足あとをつける人");
    const owner = await createUser(request, "足あとを確認する人");
    const visitorPage = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await login(visitorPage, visitor.email, `/u/${owner.id}`);
    await expect(visitorPage.getByRole("heading", { level: 1, name: "足あとを確認する人" })).toBeVisible();
    await expect(visitorPage.getByRole("link", { name: "チャットする" })).toBeVisible();

    const ownerPage = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await login(ownerPage, owner.email, "/mypage/footprints");
    const list = ownerPage.getByRole("list", { name: "足あと一覧" });
    await expect(list).toContainText("足あとをつける人");
    await list.getByRole("link", { name: /足あとをつける人/ }).click();
    await expect(ownerPage).toHaveURL(`/u/${visitor.id}`);
  });
});
