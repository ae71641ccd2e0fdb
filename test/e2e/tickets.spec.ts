import type { APIRequestContext, Page } from "@playwright/test";
import { createUser, expect, local, login, NEEDS, test, waitForHydration } from "./fixtures";

/** A `datetime-local` value in Japan time, `minutes` from now. */
function tokyoLocal(minutesFromNow: number) {
  const at = new Date(Date.now() + minutesFromNow * 60_000);
  return at.toLocaleString("sv-SE", { timeZone: "Asia/Tokyo" }).replace(" ", "T").slice(0, 16);
}

async function buyCoins(request: APIRequestContext, token: string, packageId = 3) {
  const response = await request.post("/api/coins/orders", { data: { packageId }, headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": crypto.randomUUID() } });
  expect(response.status()).toBe(201);
}

/** Registers a ticket through /mypage/ticket-registration and answers its page's path. */
async function registerTicket(page: Page, { title, price, javaScript }: { title: string; price: number; javaScript: boolean }) {
  await page.goto("/mypage/ticket-registration");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("チケット登録");
  await expect(page.getByText("まだチケットがありません。")).toBeVisible();
  await page.getByLabel("ゲーム").selectOption({ label: "Apex Legends" });
  await page.getByLabel("タイトル").fill(title);
  await page.getByLabel("説明").fill("ボイスチャットあり。");
  const price$ = page.getByLabel("1枠あたりの価格");
  if (javaScript) {
    // The coin slider: from the default 500, one step right is 1,000 (keyboard operable, its value announced).
    await waitForHydration(page);
    await expect(price$).toHaveAttribute("type", "range");
    await price$.focus();
    for (let step = 0; step < [500, 1000, 2000].indexOf(price); step++) await page.keyboard.press("ArrowRight");
    await expect(price$).toHaveAttribute("aria-valuetext", `${price.toLocaleString("ja-JP")}コイン`);
  } else {
    // Without JavaScript the slider is a select of the same steps.
    await price$.selectOption(String(price));
  }
  await page.getByLabel("1枠の時間").selectOption("30");
  await page.getByLabel("1回で購入できる最大枠数").selectOption("4");
  await page.getByRole("button", { name: "出品する" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByText("これはあなたのチケットです。")).toBeVisible();
  return new URL(page.url()).pathname;
}

/** From a ticket's page: 2 slots starting in 5 minutes, the confirmation, then the purchase. */
async function bookTicket(page: Page, path: string, { price }: { price: number }) {
  await page.goto(path);
  await page.getByLabel("枠数").selectOption("2");
  await page.getByLabel("開始希望日時（日本時間）").fill(tokyoLocal(5));
  await page.getByLabel("販売者へのメッセージ（任意）").fill("よろしくお願いします");
  await page.getByRole("button", { name: "購入内容を確認する" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("購入内容の確認");
  await expect(page).toHaveURL(/\/confirm\?.*key=[0-9a-f-]{36}/);
  await expect(page.getByRole("row", { name: /^枠数/ })).toContainText("2枠（1時間）");
  await expect(page.getByRole("row", { name: /^お支払い/ })).toContainText(`${(price * 2).toLocaleString("ja-JP")}コイン`);
  await page.getByRole("button", { name: `${(price * 2).toLocaleString("ja-JP")}コインで購入する` }).click();
  // The flash toast lasts 3 s (JavaScript removes it, or CSS fades it): watched for from the click on, and checked in
  // the page rather than on the screen, so a slow navigation cannot outlast it.
  const toast = expect(page.getByTestId("toast").filter({ hasText: "チケットを購入しました" })).toBeAttached();
  await expect(page).toHaveURL("/settings/ticket-management");
  await toast;
}

const card = (page: Page, title: string) => page.getByRole("article", { name: title });

test("a seller registers a ticket, a buyer books it, the seller accepts and starts, the buyer hears it live and completes", local(NEEDS.testPayments, NEEDS.demoData), async ({ browser, request }) => {
  test.slow();
  const seller = await createUser(request, "販売するミナト");
  const buyer = await createUser(request, "購入するソラ");
  await buyCoins(request, buyer.token); // 3,000 coins
  const sellerContext = await browser.newContext();
  const buyerContext = await browser.newContext();
  const sellerPage = await sellerContext.newPage();
  const buyerPage = await buyerContext.newPage();

  await login(sellerPage, seller.email, "/mypage");
  const title = "APEX ランク一緒に回しましょう";
  const path = await registerTicket(sellerPage, { title, price: 1000, javaScript: true });

  await login(buyerPage, buyer.email, "/mypage");
  // The list leads to it; the page shows the live total and the balance.
  await buyerPage.goto("/tickets?game=apex-legends");
  await buyerPage.getByRole("link", { name: title }).click();
  await waitForHydration(buyerPage);
  await buyerPage.getByLabel("枠数").selectOption("4");
  await expect(buyerPage.getByText("合計：4,000コイン")).toBeVisible();
  await expect(buyerPage.getByText("コインが足りません")).toBeVisible();
  await bookTicket(buyerPage, path, { price: 1000 });
  const buyerCard = card(buyerPage, title);
  await expect(buyerCard).toContainText("承認待ち");
  await expect(buyerCard).toContainText("販売するミナト");
  await expect(buyerCard.getByRole("button", { name: "キャンセルする" })).toBeVisible();
  await expect(buyerPage.getByTestId("coin-balance")).toHaveText("1,000");

  // The seller accepts and starts from ticket management; the buyer's open page hears the start live.
  await expect(buyerPage.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
  await sellerPage.goto("/settings/ticket-management?role=seller");
  const sellerCard = card(sellerPage, title);
  await expect(sellerCard).toContainText("購入者");
  await expect(sellerCard).toContainText("よろしくお願いします");
  await sellerCard.getByRole("button", { name: "承認する" }).click();
  await expect(sellerPage.getByTestId("toast").filter({ hasText: "取引を承認しました" })).toBeVisible();
  await expect(card(sellerPage, title)).toContainText("予約確定");
  await card(sellerPage, title).getByRole("button", { name: "開始する" }).click();
  // The buyer's live toast leaves after 3 s: watched for from the click on, beside the seller's checks.
  const buyerHears = expect(buyerPage.getByTestId("toast").filter({ hasText: `「${title}」が開始されました` })).toBeVisible();
  await expect(card(sellerPage, title)).toContainText("プレイ中");
  // The seller cannot complete before the end, and the page says from when.
  await expect(card(sellerPage, title).getByRole("list", { name: "今はできない操作" })).toContainText("完了する：終了時刻");

  await buyerHears;
  await expect(card(buyerPage, title)).toContainText("プレイ中");
  await expect(card(buyerPage, title).getByRole("button", { name: "延長する" })).toBeVisible();
  await card(buyerPage, title).getByRole("button", { name: "参加しました" }).click();
  await expect(card(buyerPage, title)).toContainText("購入者 ✓ 参加済み");
  await card(buyerPage, title).getByRole("button", { name: "完了する" }).click();
  await expect(buyerPage.getByTestId("toast").filter({ hasText: "取引を完了しました" })).toBeVisible();
  const done = card(buyerPage, title);
  await expect(done).toContainText("完了");
  await expect(done.getByRole("button")).toHaveCount(0);

  // The seller was paid 2,000 less the 20 % fee, and the chat between them shows the purchase as a ticket card.
  await sellerPage.goto("/settings/coin-history");
  await expect(sellerPage.getByRole("table", { name: /コインの取引/ })).toContainText("+1,600");
  await buyerPage.goto("/chat");
  await buyerPage.getByRole("link", { name: /販売するミナト/ }).first().click();
  await expect(buyerPage.getByTestId("ticket-notice").first()).toContainText(`チケット「${title}」を購入しました`);

  await sellerContext.close();
  await buyerContext.close();
});

test.describe("with JavaScript disabled", local(NEEDS.testPayments, NEEDS.demoData), () => {
  test.use({ javaScriptEnabled: false });

  test("registration, booking, acceptance and cancellation all work as plain forms, and the coins come back", async ({ browser, request }) => {
    const seller = await createUser(request, "フォームの販売者");
    const buyer = await createUser(request, "フォームの購入者");
    test.slow();
    await buyCoins(request, buyer.token); // 3,000 coins
    const sellerPage = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    const buyerPage = await (await browser.newContext({ javaScriptEnabled: false })).newPage();

    await login(sellerPage, seller.email, "/mypage");
    const title = "スト6 対戦しながらコーチング";
    const path = await registerTicket(sellerPage, { title, price: 300, javaScript: false });

    await login(buyerPage, buyer.email, "/mypage");
    await bookTicket(buyerPage, path, { price: 300 });
    await expect(card(buyerPage, title)).toContainText("承認待ち");
    await expect(buyerPage.getByTestId("coin-balance")).toHaveText("2,400");

    // Posting the same confirmation again (the back button) books nothing more.
    await buyerPage.goBack();
    await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText("購入内容の確認");
    await buyerPage.getByRole("button", { name: "600コインで購入する" }).click();
    await expect(buyerPage).toHaveURL("/settings/ticket-management");
    await expect(buyerPage.getByRole("article")).toHaveCount(1);
    await expect(buyerPage.getByTestId("coin-balance")).toHaveText("2,400");

    await sellerPage.goto("/settings/ticket-management?role=seller");
    await card(sellerPage, title).getByRole("button", { name: "承認する" }).click();
    await expect(sellerPage).toHaveURL("/settings/ticket-management?role=seller");
    await expect(card(sellerPage, title)).toContainText("予約確定");
    // In the page (CSS fades it after 3 s, which the checks above can outlast on a slow machine).
    await expect(sellerPage.getByTestId("toast").filter({ hasText: "取引を承認しました" })).toBeAttached();

    // The buyer cancels before the start: a full refund, and the card says so.
    await buyerPage.goto("/settings/ticket-management");
    await card(buyerPage, title).getByRole("button", { name: "キャンセルする" }).click();
    await expect(card(buyerPage, title)).toContainText("購入者がキャンセルしました（全額返金済み）");
    await expect(buyerPage.getByTestId("coin-balance")).toHaveText("3,000");

    // The schedule is empty again and leads somewhere useful.
    await buyerPage.goto("/mypage/schedule");
    await expect(buyerPage.getByText("予定はまだありません。")).toBeVisible();
  });
});
