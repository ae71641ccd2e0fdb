import type { Page, Request } from "@playwright/test";
import { createUser, expect, login, test } from "./fixtures";

/**
 * An image over 10 MB sent by a browser without JavaScript gets the product's answer, never a connection error page
 * (ADR 033): the server answers before reading the file, then reads and drops the rest.
 */

const TOO_LARGE = "画像のサイズは10MBまでです";
const elevenMegabytes = (name: string) => ({ name, mimeType: "image/jpeg", buffer: Buffer.alloc(11 * 1024 * 1024, 0xff) });

/** The answer to the form's POST to `pathname`; a connection reset fails at once with the browser's error. */
function answerTo(page: Page, pathname: string) {
  const isThePost = (request: Request) => request.method() === "POST" && new URL(request.url()).pathname === pathname;
  return Promise.race([
    page.waitForResponse((response) => isThePost(response.request())),
    page.waitForEvent("requestfailed", isThePost).then((request) => {
      throw new Error(`the form's POST failed: ${request.failure()?.errorText}`);
    }),
  ]);
}

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("an 11 MB image on the post form: the 413 page says the image is over 10 MB, and the form still posts after", async ({ page, request }) => {
    test.slow();
    const me = await createUser(request, "大きな画像を投稿する人");
    await login(page, me.email, "/posts/new");
    await page.getByLabel("投稿内容").fill("大きすぎる画像のテスト");
    await page.getByLabel(/画像/).setInputFiles(elevenMegabytes("huge.jpg"));
    const answer = answerTo(page, "/posts/new");
    await page.getByRole("button", { name: "投稿する", exact: true }).click();
    expect((await answer).status()).toBe(413);
    await expect(page).toHaveURL("/posts/new");
    await expect(page.locator("#new-post-image-error")).toHaveText(TOO_LARGE);
    await expect(page.getByLabel(/画像/)).toHaveAttribute("aria-invalid", "true");

    // The same tab goes on working: a text post now goes through.
    await page.getByLabel("投稿内容").fill("画像なしで投稿します");
    await page.getByRole("button", { name: "投稿する", exact: true }).click();
    await expect(page).toHaveURL("/feed");
    await expect(page.getByTestId("toast")).toHaveText(/投稿しました/);
  });

  test("an 11 MB avatar: back on the profile editor with the message", async ({ page, request }) => {
    test.slow();
    const me = await createUser(request, "大きなアバターの人");
    await login(page, me.email, "/mypage/gamer-edit");
    await page.getByLabel(/画像を選ぶ/).setInputFiles(elevenMegabytes("huge-avatar.jpg"));
    const answer = answerTo(page, "/mypage/avatar");
    await page.getByRole("button", { name: "アップロード" }).click();
    expect((await answer).status()).toBe(302);
    await expect(page).toHaveURL("/mypage/gamer-edit");
    await expect(page.getByTestId("toast")).toHaveText(new RegExp(TOO_LARGE));
  });
});
