// Plain Playwright rather than ./fixtures' `test`: this spec counts bytes and checks no behaviour, and the fixture would
// run axe-core on each of its 55 page loads, the checks accessibility.spec.ts already makes of the same pages.
import { test as base, expect, type APIRequestContext } from "@playwright/test";
import {
  FIRST_LOAD_BUDGET_KB,
  findPublicIds,
  firstLoadPages,
  kb,
  largest,
  loadPage,
  signInContext,
  sizesOf,
  type DemoIds,
} from "../support/first-load.mjs";
import { createUser, E2E_PASSWORD } from "./fixtures";

/**
 * The first-load JavaScript budget (issue 23): on every page, a first visit fetches at most FIRST_LOAD_BUDGET_KB of
 * gzip'd JavaScript, signed out and signed in, counted as `npm run bench:first-load` counts it.
 */

/** The page list with each id as its `{name}`, so that the tests are named before the ids exist. */
const PAGES = firstLoadPages({
  eventId: "{eventId}",
  gameSlug: "{gameSlug}",
  communitySlug: "{communitySlug}",
  uid: "{uid}",
  ticketId: "{ticketId}",
  roomId: "{roomId}",
  coinPackageId: "{coinPackageId}",
});

/**
 * The e2e server runs as production, without the demo accounts the bench signs in as; adding them (ALLOW_DEMO_ACCOUNTS)
 * would change what the other specs count on (discovery.spec.ts, for one, lists its ticket in a game where no one else
 * has any). So the member is made here with what the demo account has: coins, a booking of a seller's ticket (the
 * seller's profile and that ticket are the pages measured) and a chat room with a message. Once per worker: the sizes
 * do not depend on which member looks.
 */
type Scene = { ids: DemoIds; member: { email: string; password: string } };

const test = base.extend<object, { scene: Scene }>({
  scene: [
    async ({ playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      await use(await makeScene(request));
      await request.dispose();
    },
    { scope: "worker" },
  ],
});

async function makeScene(request: APIRequestContext): Promise<Scene> {
  const seller = await createUser(request, "計測の出品者");
  const member = await createUser(request, "計測の会員");
  const auth = (user: { token: string }, key?: string) => ({ Authorization: `Bearer ${user.token}`, ...(key ? { "Idempotency-Key": key } : {}) });

  const listing = await request.post("/api/listings", {
    data: { title: "計測用のチケット", gameSlug: "valorant", description: "ボイスチャットあり", pricePerUnit: 300, minutesPerUnit: 60, maxUnits: 2 },
    headers: auth(seller),
  });
  expect(listing.status()).toBe(201);
  const ticketId = (await listing.json()).data.listing.id as string;
  expect((await request.post("/api/coins/orders", { data: { packageId: 2 }, headers: auth(member, crypto.randomUUID()) })).status()).toBe(201);
  const booked = await request.post(`/api/listings/${ticketId}/purchase`, { data: { units: 1, desiredStartTime: Date.now() + 86_400_000 }, headers: auth(member, crypto.randomUUID()) });
  expect(booked.status()).toBe(201);

  const room = await request.post("/api/chat/rooms", { data: { participantIds: [seller.id], type: "DIRECT", name: null }, headers: auth(member) });
  expect(room.ok()).toBe(true);
  const roomId = (await room.json()).data.chatRoom.id as string;
  const sent = await request.post("/api/chat/messages", { data: { roomId, content: "よろしくお願いします", messageType: "TEXT", metadata: null }, headers: auth(seller) });
  expect(sent.ok()).toBe(true);

  return { ids: { ...(await findPublicIds(request)), uid: seller.id, ticketId, roomId }, member: { email: member.email, password: E2E_PASSWORD } };
}

for (const { path: pattern, signedIn, signedOut } of PAGES) {
  for (const state of [...(signedOut ? (["signedOut"] as const) : []), ...(signedIn ? (["signedIn"] as const) : [])]) {
    const label = state === "signedIn" ? "signed in" : "signed out";
    const budgetKb = FIRST_LOAD_BUDGET_KB[state];

    test(`${pattern} ${label} fetches at most ${budgetKb} KB of gzip'd JavaScript`, async ({ context, baseURL, scene }) => {
      const path = pattern.replace(/\{(\w+)\}/g, (_, name: keyof DemoIds) => scene.ids[name]);
      if (state === "signedIn") await signInContext(context, baseURL, scene.member);
      // The sizes do not change with waiting: a short quiet spell after hydration still catches what hydration starts
      // (the realtime client, the member-only overlays) without the bench's 2 s per page.
      const load = await loadPage(context, new URL(path, baseURL).href, { idleMs: 1000 });
      // A guard's redirect to /login or an error page would measure another page.
      expect({ path: new URL(load.page.url()).pathname, status: load.status }, `${path} ${label} is the page itself`).toEqual({ path, status: 200 });

      const sized = await sizesOf(load.scripts);
      const gzip = sized.reduce((sum, script) => sum + script.gzip, 0);
      const files = sized.length > 4 ? `${largest(sized, 4)}, … of ${sized.length} files` : largest(sized, 4);
      expect(gzip, `${path} ${label}: ${kb(gzip)} KB gz, budget ${budgetKb} KB (${files})`).toBeLessThanOrEqual(budgetKb * 1024);
    });
  }
}
