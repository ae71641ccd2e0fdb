import { createUser, expect, local, login, NEEDS, test, waitForHydration } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Events: a signed-in member finds a demo event through /events and its game filter, joins it from its
 * page and sees the seats change, then leaves; with JavaScript and without it. Each test uses an event of its own.
 */

const seatsLeft = async (page: Page) => Number(/残り(\d+)席/.exec((await page.getByTestId("seats-left").textContent()) ?? "")?.[1]);

async function joinAndLeave(page: Page, displayName: string) {
  const before = await seatsLeft(page);
  expect(before).toBeGreaterThan(0);
  await page.getByRole("button", { name: "参加する" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "イベントに参加しました" })).toBeVisible();
  await expect(page.getByTestId("seats-left")).toContainText(`残り${before - 1}席`);
  await expect(page.getByRole("region", { name: /参加者/ }).getByRole("link", { name: displayName })).toBeVisible();

  await page.getByRole("button", { name: "参加を取り消す" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "イベントへの参加を取り消しました" })).toBeVisible();
  await expect(page.getByTestId("seats-left")).toContainText(`残り${before}席`);
  await expect(page.getByRole("button", { name: "参加する" })).toBeVisible();
}

test("with JavaScript: the header's イベント link, the game filter, joining and leaving", local(NEEDS.demoData), async ({ page, request }) => {
  test.slow();
  const me = await createUser(request, "イベントに参加する人");
  await login(page, me.email, "/mypage");
  await waitForHydration(page);
  await page.getByRole("navigation").getByRole("link", { name: "イベント" }).first().click();
  await expect(page.getByRole("heading", { name: "開催予定のイベント" })).toBeVisible();
  await page.getByLabel("ゲーム").selectOption({ label: "VALORANT" });
  await page.getByRole("button", { name: "絞り込む" }).click();
  await page.waitForURL(/\/events\?game=valorant$/);
  await expect(page.getByRole("region", { name: "開催予定のイベント" }).getByRole("link")).toHaveText(["VALORANT 5vs5 交流戦"]);
  await page.getByRole("link", { name: "VALORANT 5vs5 交流戦" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "VALORANT 5vs5 交流戦" })).toBeVisible();
  await joinAndLeave(page, me.displayName);
});

test.describe("with JavaScript disabled", local(NEEDS.demoData), () => {
  test.use({ javaScriptEnabled: false });

  test("a visitor is sent to log in and back; the filter is a plain GET; join and leave are plain POSTs", async ({ page, request }) => {
    test.slow();
    const me = await createUser(request, "フォームでイベント参加");
    await page.goto("/events?game=splatoon-3");
    await page.getByRole("link", { name: "スプラトゥーン3 プライベートマッチ大会" }).click();
    const eventUrl = page.url();
    await page.getByRole("link", { name: "ログインして参加する" }).click();
    await page.getByLabel("メールアドレス").fill(me.email);
    await page.getByLabel("パスワード").fill("correct-horse-42");
    await page.getByRole("button", { name: "ログイン", exact: true }).last().click();
    await page.waitForURL(eventUrl);
    await joinAndLeave(page, me.displayName);
  });
});
