// A member's world for the specs that visit every page of docs/product.md#screens without the axe fixture (page-sweep.spec.ts,
// phone-nav.spec.ts): made once per worker through the API, like a person would have it.
import { expect, type APIRequestContext } from "@playwright/test";
import { findPublicIds, firstLoadPages, type DemoIds } from "../support/first-load.mjs";
import { bearer, createUser, E2E_PASSWORD } from "./fixtures";
import { test as base } from "./target";

/** The pages of docs/product.md#screens (test/support/first-load.mjs) with each id as its `{name}`, so tests are named before the ids exist. */
export const SCREEN_PAGES = firstLoadPages({
  eventId: "{eventId}",
  gameSlug: "{gameSlug}",
  communitySlug: "{communitySlug}",
  uid: "{uid}",
  listingId: "{listingId}",
  roomId: "{roomId}",
  coinPackageId: "{coinPackageId}",
});

/** A page's address with the scene's ids in place of its `{names}`. */
export const fillPath = (pattern: string, ids: Scene["ids"]) =>
  pattern.replace(/\{(\w+)\}/g, (_, name: keyof Scene["ids"]) => {
    const value = ids[name];
    if (value === undefined) throw new Error(`${pattern}: the scene has no ${name} (makeScene's \`posts\`)`);
    return value;
  });

export type Scene = { ids: DemoIds & { postId?: string }; member: { email: string; password: string } };

/**
 * The e2e server runs as production, without the demo accounts the bench signs in as; adding them (ALLOW_DEMO_ACCOUNTS)
 * would change what the other specs count on (discovery.spec.ts, for one, lists its ticket in a game where no one else
 * has any). So the member is made here with what the demo account has: coins, a booking of a seller's ticket (the
 * seller's profile and that ticket are pages of the list) and a chat room with the seller's messages. With `posts`, the
 * seller also has a post with a picture (its `postId`: the gallery's full-size view), a plan and a subscriber-only post
 * (the profile's locked card and the subscription's page).
 */
export async function makeScene(
  request: APIRequestContext,
  {
    seller: sellerName = "計測の出品者",
    member: memberName = "計測の会員",
    title = "計測用のチケット",
    messages = [["seller", "よろしくお願いします"]],
    posts = false,
  } = {} as {
    seller?: string;
    member?: string;
    title?: string;
    messages?: ["seller" | "member", string][];
    posts?: boolean;
  },
): Promise<Scene> {
  const seller = await createUser(request, sellerName);
  const member = await createUser(request, memberName);

  const listing = await request.post("/api/listings", {
    data: { title, gameSlug: "valorant", description: "ボイスチャットあり", pricePerUnit: 300, minutesPerUnit: 60, maxUnits: 2 },
    headers: bearer(seller),
  });
  expect(listing.status()).toBe(201);
  const listingId = (await listing.json()).data.listing.id as string;
  expect((await request.post("/api/coins/orders", { data: { packageId: 2 }, headers: bearer(member, crypto.randomUUID()) })).status()).toBe(201);
  const booked = await request.post(`/api/listings/${listingId}/purchase`, { data: { units: 1, desiredStartTime: Date.now() + 86_400_000 }, headers: bearer(member, crypto.randomUUID()) });
  expect(booked.status()).toBe(201);

  const room = await request.post("/api/chat/rooms", { data: { participantIds: [seller.id], type: "DIRECT", name: null }, headers: bearer(member) });
  expect(room.ok()).toBe(true);
  const roomId = (await room.json()).data.chatRoom.id as string;
  for (const [author, content] of messages) {
    const sent = await request.post("/api/chat/messages", { data: { roomId, content, messageType: "TEXT", metadata: null }, headers: bearer(author === "seller" ? seller : member) });
    expect(sent.ok()).toBe(true);
  }

  const postId = posts ? await sellersPosts(request, seller.token) : undefined;
  return { ids: { ...(await findPublicIds(request)), uid: seller.id, listingId, roomId, postId }, member: { email: member.email, password: E2E_PASSWORD } };
}

/** A 2×2 PNG, the smallest picture the upload pipeline takes. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==", "base64");

/** The seller's public post with a picture, a plan and a subscriber-only post; answers the public post's id. */
async function sellersPosts(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const uploaded = await request.post("/api/uploads", { multipart: { type: "post", file: { name: "a.png", mimeType: "image/png", buffer: PNG } }, headers });
  expect(uploaded.status()).toBe(201);
  const posted = await request.post("/api/posts/create", { data: { content: "今日の戦績", imageUrl: (await uploaded.json()).data.url, isPublic: true }, headers });
  expect(posted.ok()).toBe(true);
  expect((await request.put("/api/store/subscription-plan", { data: { monthlyPrice: 500 }, headers })).ok()).toBe(true);
  expect((await request.post("/api/posts/create", { data: { content: "限定", imageUrl: null, isPublic: false }, headers })).ok()).toBe(true);
  return (await posted.json()).post.id as string;
}

/** Playwright's `test` (no axe fixture; with ./target's @local rule) and a worker's {@link makeScene}: what is measured does not depend on who looks. */
export const test = base.extend<object, { scene: Scene }>({
  scene: [
    async ({ playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      // The sweep's names: a long one with no place to break and a long title, which wrap or truncate and never widen a page.
      await use(await makeScene(request, { seller: "NoSpacesInThisVeryLongGamerTag", title: "夜のランクマッチ_DiamondRankGrindWithVoiceChatUntilMorning!!!", posts: true }));
      await request.dispose();
    },
    { scope: "worker" },
  ],
});
