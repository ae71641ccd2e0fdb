import { axeViolations, createUser, E2E_PASSWORD, expect, local, NEEDS, test, waitForHydration } from "./fixtures";
import { atDesktop, matrix } from "./matrix";

/**
 * The main pages, signed out and signed in, on a phone (360 px) and on a desktop, have no serious or critical
 * accessibility violation (axe-core, with WCAG 2.2's target size on), once JavaScript has run and the page has settled,
 * and nothing on them scrolls sideways.
 */

/** Explore with no filter, with a game's filter, and with a search that finds nothing (its "remove this filter" chips). */
const EXPLORE_PAGES = ["/explore", "/explore?game=apex-legends", "/explore?q=%E8%A6%8B%E3%81%A4%E3%81%8B%E3%82%89%E3%81%AA%E3%81%84%E6%A4%9C%E7%B4%A2%E8%AA%9E"];
const PUBLIC_PAGES = ["/", "/login", "/signup", "/support", "/terms", "/privacy", "/transaction-act", "/inquiry", "/coins", "/tickets", "/feed", "/events", "/games", "/games/apex-legends", "/community/apex-ranked", "/no-such-page", "/forgot-password", "/auth/confirm?token_hash=abc&type=recovery", ...EXPLORE_PAGES];
const SIGNED_IN_PAGES = [
  "/",
  "/mypage",
  "/mypage/gamer-edit",
  "/settings",
  "/settings/coin-history",
  "/settings/password",
  "/settings/security",
  "/settings/email",
  "/settings/account",
  "/settings/notifications",
  "/settings/reports",
  "/notifications",
  "/chat",
  "/coins",
  "/coins/checkout/1",
  "/tickets",
  "/mypage/ticket-registration",
  "/settings/ticket-management",
  "/mypage/schedule",
  "/mypage/footprints",
  "/settings/subscription",
  "/settings/store/subscription",
  "/feed",
  "/games",
  "/games/apex-legends",
  "/community/apex-ranked",
  "/posts/new",
  "/events",
  "/support",
  "/no-such-page",
  ...EXPLORE_PAGES,
  // The scene's own pages (see signedInScene), filled in once it exists; the chat room last, as the test checks its messages.
  "/tickets/{listingId}",
  "/u/{friend}",
  "/u/{friend}/posts",
  "/u/{friend}/gallery",
  "/u/{friend}/gallery?photo={postId}",
  "/u/{friend}/subscribe",
  "/report?type=user&id={friend}",
  "{eventPath}",
  "/chat/{roomId}",
];

/** The pages in groups of `size`, so Playwright (fullyParallel) spreads the groups over its workers. */
function chunks(pages: string[], size: number) {
  return Array.from({ length: Math.ceil(pages.length / size) }, (_, index) => pages.slice(index * size, (index + 1) * size));
}

async function violationsOn(page: import("@playwright/test").Page, path: string) {
  await page.goto(path);
  await waitForHydration(page);
  // The header's live counts and the auth state settle after hydration: check what the user ends up seeing.
  await page.waitForLoadState("networkidle");
  return [...(await axeViolations(page)), ...(await sidewaysScroll(page, path))];
}

/** The page is wider than the screen (it would scroll sideways): what sticks out past the right edge, or nothing. */
async function sidewaysScroll(page: import("@playwright/test").Page, path: string) {
  const { scrollWidth, width, wide } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: document.documentElement.clientWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .slice(0, 3)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}">`),
  }));
  return scrollWidth > width ? [`scrolls sideways on ${path}: ${scrollWidth} px wide at ${width} px (${wide.join(", ")})`] : [];
}

type Request = import("@playwright/test").APIRequestContext;

/**
 * Signs the page's browser context in by posting the login form (page.request shares the context's cookies): the
 * form's own pages are checked in the lists above, and loading /login and /mypage again in every group would only
 * add two page loads and axe runs to each.
 */
async function signIn(page: import("@playwright/test").Page, email: string) {
  const response = await page.request.post("/login", { form: { email, password: E2E_PASSWORD, redirectTo: "/mypage" }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toBe("/mypage");
}

/**
 * The signed-in user's world, made afresh for each group so every page shows what it showed when all of them were
 * checked in one test: a chat room with messages, a ticket of a friend's that the user booked, the friend's post with
 * an image, a plan and a subscriber-only post, and a demo event. Answers the user and the values of the pages' {names}.
 */
async function signedInScene(request: Request) {
  const me = await createUser(request, "アクセシビリティ");
  // A long name with no place to break, and a long title: they wrap or truncate, and never widen the page.
  const friend = await createUser(request, "NoSpacesInThisVeryLongGamerTag");
  const room = await request.post("/api/chat/rooms", {
    data: { participantIds: [me.id], type: "DIRECT", name: null },
    headers: { Authorization: `Bearer ${friend.token}` },
  });
  const roomId = (await room.json()).data.chatRoom.id as string;
  for (const [author, content] of [
    [friend, "こんばんは、今夜遊べますか？"],
    [me, "21時からなら大丈夫です！"],
  ] as const) {
    const sent = await request.post("/api/chat/messages", {
      data: { roomId, content, messageType: "TEXT", metadata: null },
      headers: { Authorization: `Bearer ${author.token}` },
    });
    expect(sent.ok()).toBe(true);
  }

  // A ticket of the friend's that I booked: its page, its card in ticket management, its notice in the chat.
  const auth = (member: { token: string }, key?: string) => ({ Authorization: `Bearer ${member.token}`, ...(key ? { "Idempotency-Key": key } : {}) });
  const order = await request.post("/api/coins/orders", { data: { packageId: 2 }, headers: auth(me, crypto.randomUUID()) });
  expect(order.ok()).toBe(true);
  const listing = await request.post("/api/listings", {
    data: { title: "夜のランクマッチ_DiamondRankGrindWithVoiceChatUntilMorning!!!", gameSlug: "valorant", description: "ボイスチャットあり", pricePerUnit: 300, minutesPerUnit: 60, maxUnits: 2 },
    headers: auth(friend),
  });
  const listingId = (await listing.json()).data.listing.id as string;
  const booked = await request.post(`/api/listings/${listingId}/purchase`, { data: { units: 1, desiredStartTime: Date.now() + 86_400_000 }, headers: auth(me, crypto.randomUUID()) });
  expect(booked.status()).toBe(201);

  // A post of the friend's with an image: the feed, their profile's tabs and the gallery's full-size view.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==", "base64");
  const uploaded = await request.post("/api/uploads", { multipart: { type: "post", file: { name: "a.png", mimeType: "image/png", buffer: png } }, headers: auth(friend) });
  expect(uploaded.status()).toBe(201);
  const posted = await request.post("/api/posts/create", { data: { content: "今日の戦績", imageUrl: (await uploaded.json()).data.url, isPublic: true }, headers: auth(friend) });
  const postId = (await posted.json()).post.id as string;
  // A plan and a subscriber-only post: the locked card on the profile, and the subscription's confirmation page.
  expect((await request.put("/api/store/subscription-plan", { data: { monthlyPrice: 500 }, headers: auth(friend) })).ok()).toBe(true);
  expect((await request.post("/api/posts/create", { data: { content: "限定", imageUrl: null, isPublic: false }, headers: auth(friend) })).ok()).toBe(true);

  // A demo event's page (its id is the seed's), found through the list.
  const eventPath = /href="(\/events\/[0-9a-f-]{36})"/.exec(await (await request.get("/events")).text())?.[1];
  expect(eventPath).toBeTruthy();

  const values: Record<string, string> = { listingId, friend: friend.id, postId, eventPath: eventPath!, roomId };
  return { me, roomId, fill: (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!) };
}

// Each page is checked below once it has hydrated and settled: the fixture's own check at each load would be a second
// run of axe on the same page.
test.use({ checkEachPage: false });

for (const { name, viewport } of [
  { name: "on a phone (360 px)", viewport: { width: 360, height: 640 } },
  { name: "on a desktop (1280 px)", viewport: { width: 1280, height: 800 } },
]) {
  // At 1280 px the sweep is a repeat (@matrix, CI's): every functional flow already checks each page it opens at
  // Desktop Chrome's width, and the phone's 360 px is where layouts break first.
  test.describe(name, matrix(atDesktop(viewport)), () => {
    test.use({ viewport });

    for (const pages of chunks(PUBLIC_PAGES, 5)) {
      test(`signed out, ${pages.join(" ")} have no serious or critical violations`, async ({ page }) => {
        test.setTimeout(120_000);
        const found: string[] = [];
        for (const path of pages) found.push(...(await violationsOn(page, path)));
        expect(found).toEqual([]);
      });
    }

    for (const pages of chunks(SIGNED_IN_PAGES, 6)) {
      test(`signed in, ${pages.join(" ")} have none either`, local(NEEDS.testPayments, NEEDS.demoData), async ({ page, request }) => {
        test.setTimeout(150_000);
        const { me, roomId, fill } = await signedInScene(request);
        await signIn(page, me.email);
        const found: string[] = [];
        for (const path of pages) found.push(...(await violationsOn(page, fill(path))));
        if (pages.includes("/chat/{roomId}")) {
          expect(page.url()).toContain(`/chat/${roomId}`);
          await expect(page.getByRole("list", { name: "メッセージ一覧" })).toContainText("21時からなら大丈夫です！");
        }
        expect(found).toEqual([]);
      });
    }
  });
}
