import { randomBytes, randomInt } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, local, test, waitForHydration } from "./fixtures";
import { atDesktop, matrix } from "./matrix";

/**
 * 「Discordでログイン」 in a browser, with JavaScript and without it, on a phone (360 px) and a desktop
 * (1280 px): a new gamer gets a profile from Discord and comes back signed in, a returning one goes straight home, a
 * refused consent is said on /login, a password account links Discord in /settings and unlinks it, and two gamers who
 * both agreed in /settings/privacy see the Discord servers they share on each other's profile.
 *
 * Discord is the stand-in playwright.config.ts starts (test/support/e2e-discord.mjs): one process for every worker,
 * whose consent page starts from whoever signed in last. Each flow therefore fills in every field of the consent page
 * with a Discord account of its own (a fresh snowflake and address), never the page's defaults.
 */

const NEEDS_DISCORD = "the stand-in Discord (test/support/e2e-discord.mjs) that playwright.config.ts starts beside the app";
const DISCORD_URL = process.env.E2E_DISCORD_URL ?? "http://127.0.0.1:3127";
const PASSWORD = "correct-horse-42";

const VIEWPORTS = [
  { name: "phone", viewport: { width: 360, height: 740 } },
  { name: "desktop", viewport: { width: 1280, height: 800 } },
] as const;

interface DiscordGuild {
  id: string;
  name: string;
}

interface DiscordAccount {
  id: string;
  username: string;
  globalName: string;
  avatar: string;
  email: string;
  verified: boolean;
  guilds: DiscordGuild[];
}

/** A Discord id nobody else in this run has: the time in ms and six random digits (19 digits). */
const snowflake = () => `${Date.now()}${String(randomInt(1_000_000)).padStart(6, "0")}`;
/** A server id of this test's own (18 digits, starting with 9 as the stand-in's do). */
const guildId = () => `9${String(randomInt(1_000_000_000)).padStart(9, "0")}${String(randomInt(100_000_000)).padStart(8, "0")}`;

/** A Discord account of the test's own: unique id, username, display name and (verified) address. */
function discordAccount(name: string, guilds: DiscordGuild[] = []): DiscordAccount {
  const tag = randomBytes(3).toString("hex");
  return {
    id: snowflake(),
    username: `e2e_${tag}`,
    globalName: `${name}${tag}`,
    // The stand-in's CDN draws the avatar in the colour the hash starts with.
    avatar: randomBytes(16).toString("hex"),
    email: `e2e-discord-${randomBytes(5).toString("hex")}@example.jp`,
    verified: true,
    guilds,
  };
}

/** The stand-in's consent page: who signs in, every field filled in, then 許可 or 拒否. */
async function consent(page: Page, account: DiscordAccount, decision: "許可" | "拒否") {
  await expect(page).toHaveURL((url) => url.origin === DISCORD_URL && url.pathname.endsWith("/oauth2/authorize"));
  await expect(page).toHaveTitle("Discord（テスト用）");
  const field = (label: string) => page.getByRole("textbox", { name: label, exact: true });
  await field("ユーザーID").fill(account.id);
  await field("ユーザー名").fill(account.username);
  await field("表示名").fill(account.globalName);
  await field("アバター").fill(account.avatar);
  await field("メールアドレス").fill(account.email);
  await page.getByRole("checkbox", { name: "メール確認済み" }).setChecked(account.verified);
  await field("サーバー").fill(account.guilds.map((guild) => `${guild.id}:${guild.name}`).join(", "));
  await page.getByRole("button", { name: decision, exact: true }).click();
}

/** From /login (or /signup): 「Discordでログイン」, then the consent page answered. */
async function signInWithDiscord(page: Page, account: DiscordAccount, javaScript: boolean, { from = "/login", decision = "許可" as "許可" | "拒否" } = {}) {
  await page.goto(from);
  if (javaScript) await waitForHydration(page);
  await page.getByRole("button", { name: "Discordでログイン" }).click();
  await consent(page, account, decision);
}

/**
 * A new Discord gamer's first sign-in: the profile form, already filled in from Discord, saved as it is (no game is
 * required), and home signed in.
 */
async function firstSignIn(page: Page, account: DiscordAccount, javaScript: boolean) {
  await signInWithDiscord(page, account, javaScript);
  await expect(page).toHaveURL("/mypage/gamer-edit?redirectTo=%2F");
  await expect(page.getByLabel("表示名")).toHaveValue(account.globalName);
  if (javaScript) await waitForHydration(page);
  await page.getByRole("button", { name: "保存する" }).click();
  await expect(page).toHaveURL("/");
}

/**
 * The next document the browser loads at `pathname`: where a redirect's flashed toast is read. A toast is on screen for
 * 3 s (TOAST_MS) from when the page starts, which a loaded 2-core machine can spend before an assertion runs; the
 * document says for certain what was flashed. (Linking and unlinking are full-page form posts, with or without
 * JavaScript.)
 */
function flashedDocument(page: Page, pathname: string) {
  return page.waitForResponse(
    (response) => response.request().resourceType() === "document" && new URL(response.url()).pathname === pathname && response.status() === 200,
  );
}

/** The link to マイページ the page shows at its width: the header's from 640 px, the bar at the bottom below. */
const myPageLink = (page: Page) => page.getByRole("link", { name: "マイページ", exact: true }).filter({ visible: true });

/** The gamer's own profile, /u/{uid}, as マイページ links it. */
async function ownProfilePath(page: Page) {
  await page.goto("/mypage");
  const href = await page.getByRole("link", { name: "自分のプロフィールを見る" }).getAttribute("href");
  expect(href).toMatch(/^\/u\/[0-9a-f-]{36}$/);
  return href!;
}

/** Turns 「共通のDiscordサーバーをプロフィールに表示する」 on in /settings/privacy. */
async function showSharedGuilds(page: Page, javaScript: boolean) {
  await page.goto("/settings/privacy");
  if (javaScript) await waitForHydration(page);
  await page.getByRole("checkbox", { name: "共通のDiscordサーバーをプロフィールに表示する" }).check();
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page).toHaveURL("/settings/privacy");
  await expect(page.getByRole("checkbox", { name: "共通のDiscordサーバーをプロフィールに表示する" })).toBeChecked();
}

/** A second person's browser, at the same width and with JavaScript as the test's. */
async function secondBrowser(browser: Browser, viewport: { width: number; height: number }, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ viewport, javaScriptEnabled, locale: "ja-JP", timezoneId: "Asia/Tokyo", reducedMotion: "reduce" });
  return { context, page: await context.newPage() };
}

for (const javaScript of [true, false]) {
  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`${javaScript ? "with JavaScript" : "without JavaScript"}, ${name} (${viewport.width} px)`, matrix(atDesktop(viewport), local(NEEDS_DISCORD)), () => {
      test.use({ javaScriptEnabled: javaScript, viewport });
      // Each flow crosses to Discord and back and opens up to eight pages, each of which the fixture checks with
      // axe-core (without JavaScript, in a copy of the page): 20–60 s in CI's run beside the rest of the suite on two
      // cores (the slowest, linking at 1280 px with JavaScript, 60 s). 150 s stays well above that.
      test.describe.configure({ timeout: 150_000 });
      // The sign-in runs at all four; the other flows at two each, so that each still meets both widths and both
      // JavaScript settings without doubling the suite's time: the refusal and the shared servers with JavaScript on a
      // phone and without it on a desktop, linking the other way round.
      const paired = javaScript === (viewport.width === 360);

      test("a new gamer: Discordでログイン → 許可 → the profile from Discord → saved → signed in; next time straight home", async ({ page }) => {
        const account = discordAccount("けんた");
        await signInWithDiscord(page, account, javaScript);

        // A new account: its profile is already made from Discord (the display name, the avatar), to check and save.
        await expect(page).toHaveURL("/mypage/gamer-edit?redirectTo=%2F");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("プロフィール編集");
        await expect(page.getByLabel("表示名")).toHaveValue(account.globalName);
        const avatar = page.getByRole("region", { name: "アバター画像" }).locator("img");
        await expect(avatar).toHaveAttribute("src", /^\/uploads\//);
        await avatar.scrollIntoViewIfNeeded();
        await expect.poll(() => avatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { message: "the avatar loads" }).toBe(true);
        if (javaScript) await waitForHydration(page);
        await page.getByLabel("自己紹介").fill("Discordから来ました");
        await page.getByRole("checkbox", { name: "VALORANT" }).check();
        await page.getByRole("button", { name: "保存する" }).click();

        await expect(page).toHaveURL("/");
        // Home as a member sees it (the visitor's hero says 「一緒に遊ぶ仲間が、…」 instead).
        await expect(page.getByRole("heading", { name: "次のセッション" })).toBeVisible();
        await expect(page.getByRole("banner").getByRole("link", { name: "ログイン" })).toHaveCount(0);
        if (javaScript) await expect(page.locator("[data-auth-status]")).toHaveAttribute("data-auth-status", "signedIn");
        // The header shows no name; マイページ greets the gamer by their Discord name.
        await myPageLink(page).click();
        await expect(page).toHaveURL("/mypage");
        await expect(page.getByText(`ようこそ、${account.globalName}さん`)).toBeVisible();

        // Next time (a new browser session), the same Discord account goes straight home, signed in: a new account
        // would have been sent to the profile form.
        await page.context().clearCookies();
        await signInWithDiscord(page, account, javaScript);
        await expect(page).toHaveURL("/");
        await expect(page.getByRole("heading", { name: "次のセッション" })).toBeVisible();
      });

      if (paired) test("拒否 on Discord's consent page: back at /login, which says the sign-in was cancelled", async ({ page }) => {
        // From /signup, whose button is the same: a refusal is said on /login either way.
        await signInWithDiscord(page, discordAccount("きゃんせる"), javaScript, { from: "/signup", decision: "拒否" });
        await expect(page).toHaveURL("/login?error=cancelled");
        await expect(page.getByRole("alert")).toHaveText("Discordでのログインがキャンセルされました。");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("ログイン");
        // Still signed out, with the way to try again.
        await expect(page.getByRole("button", { name: "Discordでログイン" })).toBeVisible();
        await expect(page.getByRole("banner").getByRole("link", { name: "新規登録" })).toBeVisible();
      });

      if (!paired) test("a password account links Discord in /settings, then unlinks it", async ({ page }) => {
        const email = `e2e-link-${randomBytes(5).toString("hex")}@example.jp`;
        // An address different from the account's, which Discord verified.
        const account = discordAccount("れんけい");
        await page.goto("/signup?redirectTo=%2Fsettings");
        if (javaScript) await waitForHydration(page);
        await page.getByLabel("メールアドレス").fill(email);
        await page.getByLabel("パスワード").fill(PASSWORD);
        await page.getByRole("button", { name: "登録する" }).click();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("プロフィールを設定しましょう");
        if (javaScript) await waitForHydration(page);
        await page.getByLabel("表示名").fill("パスワード派");
        await page.getByRole("button", { name: "保存する" }).click();
        await expect(page).toHaveURL("/settings");

        const section = page.getByRole("region", { name: "Discord連携" });
        await expect(section).toContainText("連携すると、Discordでもログインできます。");
        if (javaScript) await waitForHydration(page);
        await section.getByRole("button", { name: "Discordを連携" }).click();
        const linked = flashedDocument(page, "/settings");
        await consent(page, account, "許可");

        await expect(page).toHaveURL("/settings");
        expect(await (await linked).text()).toContain("Discordを連携しました");
        await expect(section.getByTestId("discord-linked")).toContainText(`「${account.globalName}」と連携しています`);
        // Still the same account.
        await expect(page.getByText(email)).toBeVisible();
        if (javaScript) await waitForHydration(page);
        const unlinked = flashedDocument(page, "/settings");
        await section.getByRole("button", { name: "連携を解除" }).click();

        await expect(page).toHaveURL("/settings");
        expect(await (await unlinked).text()).toContain("Discordの連携を解除しました");
        await expect(section.getByTestId("discord-linked")).toHaveCount(0);
        await expect(section.getByRole("button", { name: "Discordを連携" })).toBeVisible();
      });

      // Two gamers, two browsers: the slowest flow (56 s in CI).
      if (paired) {
        test("共通のDiscordサーバー: shown on a profile only once both gamers turn it on, and only the shared server", async ({ page, browser }) => {
          test.setTimeout(180_000);
          const shared = { id: guildId(), name: `共通テスト鯖${randomBytes(2).toString("hex")}` };
          const viewerOnly = { id: guildId(), name: "Aだけの鯖" };
          const ownerOnly = { id: guildId(), name: "Bだけの鯖" };
          const viewer = discordAccount("えー", [viewerOnly, shared]);
          const owner = discordAccount("びー", [shared, ownerOnly]);

          const second = await secondBrowser(browser, viewport, javaScript);
          try {
            await firstSignIn(page, viewer, javaScript);
            await firstSignIn(second.page, owner, javaScript);
            const ownerProfile = await ownProfilePath(second.page);
            const sharedSection = page.getByRole("region", { name: "共通のDiscordサーバー" });

            // Off by default: nothing is shown, even once the viewer alone agreed.
            await page.goto(ownerProfile);
            await expect(page.getByRole("heading", { level: 1 })).toContainText(owner.globalName);
            await expect(sharedSection).toHaveCount(0);
            await showSharedGuilds(page, javaScript);
            await page.goto(ownerProfile);
            await expect(page.getByRole("heading", { level: 1 })).toContainText(owner.globalName);
            await expect(sharedSection).toHaveCount(0);

            // Both agreed: the shared server, and neither one's other server.
            await showSharedGuilds(second.page, javaScript);
            await page.goto(ownerProfile);
            await expect(sharedSection).toBeVisible();
            // One server (its row starts with the icon, or the name's first letter where it has none), by its name.
            await expect(sharedSection.getByRole("listitem")).toHaveCount(1);
            await expect(sharedSection.getByRole("listitem")).toContainText(shared.name);
            await expect(page.getByText(ownerOnly.name)).toHaveCount(0);
            await expect(page.getByText(viewerOnly.name)).toHaveCount(0);
          } finally {
            await second.context.close();
          }
        });
      }
    });
  }
}

// On PostgreSQL: the suite's second server (playwright.config.ts starts it when TEST_DATABASE_URL is set, as CI does),
// which the stand-in also knows; a new gamer's sign-in and their return, on a phone, with JavaScript and without it.
for (const javaScript of process.env.E2E_PG_BASE_URL ? [true, false] : []) {
  // The second engine's run of the sign-in (@matrix, CI's), as the PGlite pass is for the integration files.
  test.describe(`on PostgreSQL, ${javaScript ? "with JavaScript" : "without JavaScript"}`, matrix(true, local(NEEDS_DISCORD)), () => {
    test.use({ baseURL: process.env.E2E_PG_BASE_URL, javaScriptEnabled: javaScript, viewport: VIEWPORTS[0].viewport });
    // 44–54 s in CI beside the rest of the suite.
    test.describe.configure({ timeout: 150_000 });

    test("a new gamer signs in with Discord, then comes back signed in", async ({ page }) => {
      const account = discordAccount("ぽすぐれ");
      await firstSignIn(page, account, javaScript);
      await page.context().clearCookies();
      await signInWithDiscord(page, account, javaScript);
      await expect(page).toHaveURL("/");
      await expect(page.getByRole("heading", { name: "次のセッション" })).toBeVisible();
    });
  });
}
