import { randomBytes, randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditPurchase, ledgerProblems } from "~/models/coins.server";
import { setHidden, type HiddenTargetType } from "~/models/hidden.server";
import { createBrowserMember } from "../support/auth";
import { testEngine } from "../support/database";
import { startTestServer, type TestServer } from "../support/server";

/**
 * Hidden content (docs/product.md#trust-and-safety) through the real server, on whichever engine the run uses: a post,
 * a chat message, a listing and a review hidden with `setHidden` are gone for everyone else from every page and API
 * (lists leave them out, their own pages and APIs are 404s), while their author still sees them, marked
 * 「運営により非表示」; restoring brings them back. A hidden listing cannot be bought (nothing in escrow, the
 * ledger whole), and a hidden review counts in no rating.
 */

const BADGE = "運営により非表示";
const GAME = "hidden-test-game";
const COMMUNITY = "hidden-test-community";
let app: TestServer;
const db = () => app.database.db;

const newMember = (displayName: string) => createBrowserMember(app, displayName);
type TestMember = Awaited<ReturnType<typeof newMember>>;

/** A word nobody else wrote, so a page contains it only when it shows this item. */
const marker = (prefix: string) => `${prefix}${randomBytes(4).toString("hex")}`;
/** A page's HTML without the comments React puts between adjacent text parts. */
const textOf = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");
const hide = (targetType: HiddenTargetType, targetId: string, hidden = true) =>
  db().transaction().execute((trx) => setHidden({ trx, targetType, targetId, hidden }));

/** The page as this member (or signed out) sees it: its status and text. */
async function view(member: TestMember | null, pathname: string) {
  const response = member ? await member.page(pathname) : await app.request(pathname);
  return { status: response.status, html: await textOf(response) };
}
async function json<T>(member: TestMember, pathname: string) {
  const response = await member.api(pathname);
  return { status: response.status, body: (await response.json()) as T };
}

beforeAll(async () => {
  app = await startTestServer({ seed: false });
  const game = await db().insertInto("games").values({ slug: GAME, name: "非表示テストゲーム", name_kana: "ひひょうじてすとげーむ" }).returning("id").executeTakeFirstOrThrow();
  await db().insertInto("communities").values({ slug: COMMUNITY, name: "非表示テストの集まり", game_id: game.id }).execute();
});
afterAll(async () => {
  await app?.close();
});

describe(`a hidden post (${testEngine})`, () => {
  let author: TestMember;
  let other: TestMember;
  let postId: string;
  let text: string;
  const pages = () => ["/feed", `/u/${author.id}/posts`, `/u/${author.id}/gallery`, `/community/${COMMUNITY}`, `/games/${GAME}`, "/"];

  beforeAll(async () => {
    [author, other] = await Promise.all([newMember("隠される投稿者"), newMember("投稿を見る人")]);
    const community = await db().selectFrom("communities").select("id").where("slug", "=", COMMUNITY).executeTakeFirstOrThrow();
    await db().insertInto("community_members").values({ community_id: community.id, user_id: author.id }).execute();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#ef4444" } }).png().toBuffer();
    const form = new FormData();
    form.set("type", "post");
    form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "shot.png");
    const uploaded = await app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${author.token}` } });
    const imageUrl = ((await uploaded.json()).data as { url: string }).url;
    text = marker("隠される投稿");
    const created = await author.api("/api/posts/create", { json: { content: text, imageUrl, isPublic: true, communityId: community.id } });
    expect(created.status).toBe(201);
    postId = ((await created.json()) as { post: { id: string } }).post.id;
    // Everyone sees it before it is hidden.
    for (const pathname of pages()) expect((await view(other, pathname)).html, pathname).toContain(text);
    expect(await hide("post", postId)).toEqual({ ownerId: author.id, changed: true });
  });

  it("is gone for everyone else from the feed, the profile, the gallery, the community, the game page and home, and its API is a 404", async () => {
    for (const viewer of [other, null]) {
      for (const pathname of pages()) {
        const page = await view(viewer, pathname);
        expect(page.status, pathname).toBe(200);
        expect(page.html, pathname).not.toContain(text);
        expect(page.html, pathname).not.toContain(BADGE);
      }
      expect((await view(viewer, `/u/${author.id}/gallery?photo=${postId}`)).status).toBe(404);
    }
    expect((await other.api(`/api/posts/${postId}`)).status).toBe(404);
    expect((await app.request(`/api/posts/${postId}`)).status).toBe(404);
    for (const query of ["", `?authorId=${author.id}`, `?authorId=${author.id}&withImage=true`]) {
      const { body } = await json<{ data: { posts: Array<{ id: string }> } }>(other, `/api/posts${query}`);
      expect(body.data.posts.map((post) => post.id), query).not.toContain(postId);
    }
  });

  it("its author still sees it everywhere, marked 「運営により非表示」, and in the API with hidden: true", async () => {
    for (const pathname of [...pages(), `/u/${author.id}/gallery?photo=${postId}`]) {
      const page = await view(author, pathname);
      expect(page.status, pathname).toBe(200);
      if (pathname.endsWith("/gallery")) expect(page.html, pathname).toContain(`?photo=${postId}`);
      else expect(page.html, pathname).toContain(text);
      expect(page.html, pathname).toContain(BADGE);
      expect(page.html, pathname).toContain('data-testid="hidden-badge"');
    }
    const one = await json<{ post: { id: string; hidden: boolean } }>(author, `/api/posts/${postId}`);
    expect(one.status).toBe(200);
    expect(one.body.post).toMatchObject({ id: postId, hidden: true });
    const list = await json<{ data: { posts: Array<{ id: string; hidden: boolean }> } }>(author, `/api/posts?authorId=${author.id}`);
    expect(list.body.data.posts.find((post) => post.id === postId)).toMatchObject({ hidden: true });
  });

  it("restored, it is back for everyone, unmarked", async () => {
    expect(await hide("post", postId, false)).toEqual({ ownerId: author.id, changed: true });
    for (const pathname of pages()) {
      const page = await view(other, pathname);
      expect(page.html, pathname).toContain(text);
      expect((await view(author, pathname)).html, pathname).not.toContain(BADGE);
    }
    const one = await json<{ post: { hidden: boolean } }>(other, `/api/posts/${postId}`);
    expect(one.body.post.hidden).toBe(false);
    // Restoring what is not hidden changes nothing; an unknown or malformed id is no item.
    expect(await hide("post", postId, false)).toEqual({ ownerId: author.id, changed: false });
    expect(await hide("post", randomUUID())).toBeNull();
    expect(await hide("post", "not-a-uuid")).toBeNull();
  });
});

describe(`a hidden chat message (${testEngine})`, () => {
  let sender: TestMember;
  let reader: TestMember;
  let roomId: string;
  let shownText: string;
  let hiddenText: string;
  let hiddenId: number;
  type Message = { id: number; content: string; hidden?: boolean };
  type Room = { id: string; unreadCount: number; lastMessage: Message | null };

  const send = async (content: string) => {
    const response = await sender.api("/api/chat/messages", { json: { roomId, content } });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { message: Message } }).data.message;
  };
  const roomOf = async (member: TestMember) => (await json<{ data: { chatRooms: Room[] } }>(member, "/api/chat/rooms")).body.data.chatRooms.find((room) => room.id === roomId)!;
  const history = async (member: TestMember) => (await json<{ data: { messages: Message[] } }>(member, `/api/chat/messages?roomId=${roomId}`)).body.data.messages;
  const unread = async (member: TestMember) => (await json<{ unreadCount: number }>(member, "/api/chat/unread-count")).body.unreadCount;

  beforeAll(async () => {
    [sender, reader] = await Promise.all([newMember("隠される送信者"), newMember("メッセージを読む人")]);
    const room = await sender.api("/api/chat/rooms", { json: { participantIds: [reader.id], type: "DIRECT", name: null } });
    roomId = ((await room.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id;
    shownText = marker("ふつうのメッセージ");
    hiddenText = marker("隠されるメッセージ");
    await send(shownText);
    hiddenId = (await send(hiddenText)).id;
    expect(await unread(reader)).toBe(2);
    expect(await hide("chat_message", String(hiddenId))).toEqual({ ownerId: sender.id, changed: true });
  });

  it("is gone for the other person: history (page and API), the room list's preview, and the unread counts", async () => {
    expect((await history(reader)).map((message) => message.content)).toEqual([shownText]);
    const room = await roomOf(reader);
    expect(room.lastMessage).toMatchObject({ content: shownText });
    expect(room.unreadCount).toBe(1);
    expect(await unread(reader)).toBe(1);
    const list = await view(reader, "/chat");
    expect(list.html).toContain(shownText);
    expect(list.html).not.toContain(hiddenText);
    // Opening the room reads what it shows, and only that.
    const page = await view(reader, `/chat/${roomId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(shownText);
    expect(page.html).not.toContain(hiddenText);
    expect(page.html).not.toContain(BADGE);
    expect(await unread(reader)).toBe(0);
  });

  it("its sender still sees it, marked 「運営により非表示」, in the room, its history API and the room list", async () => {
    const mine = await history(sender);
    expect(mine.map((message) => [message.content, message.hidden])).toEqual([
      [shownText, false],
      [hiddenText, true],
    ]);
    const page = await view(sender, `/chat/${roomId}`);
    expect(page.html).toContain(hiddenText);
    expect(page.html).toContain(BADGE);
    expect((await roomOf(sender)).lastMessage).toMatchObject({ id: hiddenId, hidden: true });
    const list = await view(sender, "/chat");
    expect(list.html).toContain(hiddenText);
    expect(list.html).toContain(BADGE);
  });

  it("restored, the other person sees it again, and it is unread again", async () => {
    expect(await hide("chat_message", String(hiddenId), false)).toEqual({ ownerId: sender.id, changed: true });
    expect((await history(reader)).map((message) => message.content)).toEqual([shownText, hiddenText]);
    expect((await roomOf(reader)).lastMessage).toMatchObject({ id: hiddenId, hidden: false });
    // The room was read while it was hidden: it was not read then, so it is unread now.
    expect(await unread(reader)).toBe(1);
    expect((await view(reader, `/chat/${roomId}`)).html).toContain(hiddenText);
    expect(await hide("chat_message", "12x")).toBeNull();
  });
});

describe(`a hidden listing (${testEngine})`, () => {
  let seller: TestMember;
  let buyer: TestMember;
  let listingId: string;
  let title: string;
  const lists = () => [
    "/tickets",
    `/tickets?seller=${seller.id}`,
    `/u/${seller.id}`,
    `/games/${GAME}`,
    `/explore?${new URLSearchParams({ q: title })}`,
    `/explore?${new URLSearchParams({ game: GAME, sort: "newest" })}`,
    "/",
  ];
  const purchase = (member: TestMember) =>
    member.api(`/api/listings/${listingId}/purchase`, { json: { units: 1, desiredStartTime: Date.now() + 86_400_000 }, headers: { "Idempotency-Key": randomUUID() } });

  beforeAll(async () => {
    [seller, buyer] = await Promise.all([newMember("隠される出品者"), newMember("チケットを探す人")]);
    await db().transaction().execute((trx) => creditPurchase(trx, { userId: buyer.id, coins: 5_000, reference: `test-credit:${randomUUID()}` }));
    title = marker("隠されるチケット");
    const created = await seller.api("/api/listings", { json: { title, gameSlug: GAME, description: "", pricePerUnit: 300, minutesPerUnit: 30, maxUnits: 2 } });
    expect(created.status).toBe(201);
    listingId = ((await created.json()) as { data: { listing: { id: string } } }).data.listing.id;
    for (const pathname of lists().filter((pathname) => pathname !== "/")) expect((await view(buyer, pathname)).html, pathname).toContain(`/tickets/${listingId}"`);
    expect(await hide("listing", listingId)).toEqual({ ownerId: seller.id, changed: true });
  });

  it("is gone for everyone else from the listing list, the profile, the game page, explore and home; its page and API are 404s", async () => {
    for (const viewer of [buyer, null]) {
      for (const pathname of lists()) {
        const page = await view(viewer, pathname);
        expect(page.status, pathname).toBe(200);
        expect(page.html, pathname).not.toContain(`/tickets/${listingId}"`);
      }
      expect((await view(viewer, `/tickets/${listingId}`)).status).toBe(404);
    }
    const confirm = await view(buyer, `/tickets/${listingId}/confirm?${new URLSearchParams({ units: "1", desiredStartTime: new Date(Date.now() + 86_400_000).toISOString() })}`);
    expect(confirm.status).toBe(404);
    expect((await buyer.api(`/api/listings/${listingId}`)).status).toBe(404);
    expect((await app.request(`/api/listings/${listingId}`)).status).toBe(404);
    for (const query of ["", `?sellerId=${seller.id}`, `?game=${GAME}`]) {
      const { body } = await json<{ data: { listings: Array<{ id: string }> } }>(buyer, `/api/listings${query}`);
      expect(body.data.listings.map((listing) => listing.id), query).not.toContain(listingId);
    }
  });

  it("cannot be bought: refused as not found, nothing booked, nothing in escrow, the ledger whole", async () => {
    const balance = async () => (await json<{ totalBalance: number }>(buyer, "/api/coins/balance")).body.totalBalance;
    const before = await balance();
    const response = await purchase(buyer);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("listing_not_found");
    expect(await db().selectFrom("bookings").select("id").where("listing_id", "=", listingId).execute()).toEqual([]);
    expect(await db().selectFrom("coin_escrows").select("reference").where("payer_id", "=", buyer.id).execute()).toEqual([]);
    expect(await balance()).toBe(before);
    expect(await ledgerProblems(db())).toEqual([]);
  });

  it("its seller still sees it on their registration page, its own page and the API, marked 「運営により非表示」", async () => {
    for (const pathname of ["/mypage/ticket-registration", `/tickets/${listingId}`, `/u/${seller.id}`, `/tickets?seller=${seller.id}`]) {
      const page = await view(seller, pathname);
      expect(page.status, pathname).toBe(200);
      expect(page.html, pathname).toContain(title);
      expect(page.html, pathname).toContain(BADGE);
    }
    const one = await json<{ data: { listing: { id: string; hidden: boolean } } }>(seller, `/api/listings/${listingId}`);
    expect(one.status).toBe(200);
    expect(one.body.data.listing).toMatchObject({ id: listingId, hidden: true });
  });

  it("restored, it is listed and can be bought again", async () => {
    expect(await hide("listing", listingId, false)).toEqual({ ownerId: seller.id, changed: true });
    for (const pathname of lists().filter((pathname) => pathname !== "/")) expect((await view(buyer, pathname)).html, pathname).toContain(`/tickets/${listingId}"`);
    expect((await view(buyer, `/tickets/${listingId}`)).status).toBe(200);
    expect((await purchase(buyer)).status).toBe(201);
    expect(await ledgerProblems(db())).toEqual([]);
  });
});

describe(`a hidden review (${testEngine})`, () => {
  let seller: TestMember;
  let critic: TestMember;
  let fan: TestMember;
  let listingId: string;
  let reviewId: string;
  let comment: string;
  let praise: string;

  /** A completed booking of the seller's listing by this buyer, reviewed with these stars; answers the review's id. */
  async function reviewAfterBooking(buyer: TestMember, rating: number, text: string) {
    await db().transaction().execute((trx) => creditPurchase(trx, { userId: buyer.id, coins: 1_000, reference: `test-credit:${randomUUID()}` }));
    const bought = await buyer.api(`/api/listings/${listingId}/purchase`, {
      json: { units: 1, desiredStartTime: Date.now() + 60_000 },
      headers: { "Idempotency-Key": randomUUID() },
    });
    expect(bought.status).toBe(201);
    const bookingId = ((await bought.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
    for (const [member, action] of [[seller, "accept"], [seller, "start"], [buyer, "complete"]] as const) {
      expect((await member.api(`/api/tickets/${bookingId}/${action}`, { json: {} })).status, action).toBe(200);
    }
    expect((await buyer.api("/api/reviews", { json: { bookingId, rating, comment: text, tipAmount: 0 } })).status).toBe(201);
    return (await db().selectFrom("reviews").select("id").where("booking_id", "=", bookingId).executeTakeFirstOrThrow()).id;
  }
  const ratingOf = async () => {
    const user = await db().selectFrom("users").select(["rating_count", "rating_sum"]).where("id", "=", seller.id).executeTakeFirstOrThrow();
    const listing = await db().selectFrom("listings").select(["seller_rating", "seller_rating_count"]).where("id", "=", listingId).executeTakeFirstOrThrow();
    const api = await json<{ data: { listing: { seller: { rating: { average: number | null; count: number } } } } }>(fan, `/api/listings/${listingId}`);
    return { ...user, listing: { average: Number(listing.seller_rating), count: listing.seller_rating_count }, api: api.body.data.listing.seller.rating };
  };

  beforeAll(async () => {
    [seller, critic, fan] = await Promise.all([newMember("レビューされる人"), newMember("辛口の人"), newMember("ファンの人")]);
    const created = await seller.api("/api/listings", { json: { title: marker("レビューのチケット"), gameSlug: GAME, description: "", pricePerUnit: 100, minutesPerUnit: 30, maxUnits: 1 } });
    listingId = ((await created.json()) as { data: { listing: { id: string } } }).data.listing.id;
    praise = marker("とても楽しかった");
    comment = marker("隠されるレビュー");
    await reviewAfterBooking(fan, 5, praise);
    reviewId = await reviewAfterBooking(critic, 1, comment);
    expect(await ratingOf()).toEqual({ rating_count: 2, rating_sum: 6, listing: { average: 3, count: 2 }, api: { average: 3, count: 2 } });
    expect(await hide("review", reviewId)).toEqual({ ownerId: critic.id, changed: true });
  });

  it("is gone for everyone else from the profile and the listing page, and counts in no rating", async () => {
    for (const viewer of [fan, seller, null]) {
      for (const pathname of [`/u/${seller.id}`, `/tickets/${listingId}`]) {
        const page = await view(viewer, pathname);
        expect(page.status, pathname).toBe(200);
        expect(page.html, pathname).toContain(praise);
        expect(page.html, pathname).not.toContain(comment);
        expect(page.html, pathname).not.toContain(BADGE);
      }
    }
    expect(await ratingOf()).toEqual({ rating_count: 1, rating_sum: 5, listing: { average: 5, count: 1 }, api: { average: 5, count: 1 } });
    // Hiding it again changes nothing, the totals included.
    expect(await hide("review", reviewId)).toEqual({ ownerId: critic.id, changed: false });
    expect((await ratingOf()).rating_count).toBe(1);
  });

  it("its reviewer still sees it, marked 「運営により非表示」", async () => {
    for (const pathname of [`/u/${seller.id}`, `/tickets/${listingId}`]) {
      const page = await view(critic, pathname);
      expect(page.html, pathname).toContain(comment);
      expect(page.html, pathname).toContain(BADGE);
    }
  });

  it("restored, it is shown and counted again", async () => {
    expect(await hide("review", reviewId, false)).toEqual({ ownerId: critic.id, changed: true });
    expect((await view(fan, `/u/${seller.id}`)).html).toContain(comment);
    expect(await ratingOf()).toEqual({ rating_count: 2, rating_sum: 6, listing: { average: 3, count: 2 }, api: { average: 3, count: 2 } });
    expect(await ledgerProblems(db())).toEqual([]);
  });
});
