import { createECDH, createHmac, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import fc from "fast-check";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserMember, createMember, PASSWORD, signUp, uniqueEmail } from "../support/auth";
import { tableChecksums } from "../support/checksums";
import { startTestServer, type TestServer } from "../support/server";
import { MAIL_KINDS } from "../../app/lib/constants/mail";
import { PUSH_KINDS } from "../../app/lib/constants/push";
import { unsubscribeUrl } from "../../app/lib/unsubscribe.server";
import { creditPurchase } from "../../app/models/coins.server";

/**
 * Every way in that takes input (each /api route and method, each route module with an action, each /auth/v1
 * endpoint, and the page loaders that read a query string) gets generated bodies: wrong types, huge strings, control
 * characters with NUL, emoji, lone surrogates, unknown fields, arrays and objects for strings, malformed JSON. Signed
 * in or not, the server must never answer 5xx, must still answer /healthz, and a 4xx refusal must leave every table
 * as it was (ADR 014). The coverage test at the end makes each new route add its row here.
 */

/** Runs per row; FUZZ_RUNS=200 for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const WEBHOOK_SECRET = "whsec_fuzz_local_secret";

// ---------------------------------------------------------------------------------------------------------------
// Generated values

/** Characters that have broken text handling somewhere: controls, NUL, DEL, C1, separators, surrogate halves, emoji. */
/** What PostgreSQL text and jsonb cannot hold at all. */
const unstorable = fc.constantFrom("\u0000", "\ud800", "\udfff");
const nastyChar = fc.oneof({ weight: 1, arbitrary: unstorable }, { weight: 3, arbitrary: fc.constantFrom(
  "\u0001", "\u0007", "\b", "\t", "\n", "\u000b", "\f", "\r", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f",
  "\u00a0", "\u200b", "\u202e", "\u2028", "\ufeff", "\ufffd", "\uffff", "\ud800", "\udbff", "\udc00", "\udfff",
  "😀", "👨‍👩‍👧", "𠮷", "e\u0301", "\u304b\u3099", "ｱ", "%00", "\\u0000", "'", '"', "<", "&", ";", "=", "+", "#", "?", "/",
) });
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const anyChar = fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), codeUnit, nastyChar);

const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: anyChar, maxLength: 24 }) },
  { weight: 3, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), nastyChar, fc.string({ maxLength: 8 })).map((parts) => parts.join("")) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("", " ", "\u0000", "null", "undefined", "true", "0", "-1", "1e400", "NaN", "Infinity", "9007199254740993",
      "18446744073709551616", "1.5", "0x10", "[]", "{}", "__proto__", "constructor", "../../etc/passwd", "' OR '1'='1", "<script>alert(1)</script>",
      "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11", "00000000-0000-0000-0000-000000000000", "https://example.jp/a.png", "javascript:alert(1)", "a@b.cd"),
  },
  // Huge: well over every limit, and large enough to reach body and header limits.
  { weight: 1, arbitrary: fc.constantFrom(1_001, 5_000, 70_000).chain((length) => nastyChar.map((char) => "あ".repeat(length) + char)) },
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 63, 1e300, Number.MAX_SAFE_INTEGER + 2)) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
);

/** A field: usually a value that passes, often a nasty one, sometimes absent. */
const field = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 3, arbitrary: nastyValue }, { weight: 1, arbitrary: fc.constant(undefined) });

/** Valid text with something nasty inside it, or not. */
const text = (valid: string) =>
  fc.oneof(fc.constant(valid), fc.tuple(nastyChar, fc.nat(valid.length)).map(([char, at]) => valid.slice(0, at) + char + valid.slice(at)));

type Fields = Record<string, fc.Arbitrary<unknown>>;

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | FormData;
}

const json = (body: string, contentType = "application/json") => ({ body, headers: { "Content-Type": contentType } });

/** Every field valid but one, which gets a nasty character inside (a string) or a nasty value (anything else). */
function validButOne<T>(fields: Record<string, fc.Arbitrary<T>>) {
  const names = Object.keys(fields);
  if (names.length === 0) return fc.constant({} as Record<string, unknown>);
  return fc.tuple(fc.record(fields), fc.constantFrom(...names), nastyChar, fc.nat(), nastyValue).map(([valid, name, char, at, value]) => {
    const current: unknown = valid[name];
    if (typeof current !== "string") return { ...valid, [name]: value } as Record<string, unknown>;
    const index = at % (current.length + 1);
    return { ...valid, [name]: current.slice(0, index) + char + current.slice(index) } as Record<string, unknown>;
  });
}

/** A JSON body: the route's fields (each maybe replaced), unknown fields, or no object at all, or no JSON at all. */
function jsonBody(fields: Fields) {
  const object = fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(fields).map(([name, valid]) => [name, field(valid)]))),
      fc.dictionary(nastyString, nastyValue, { maxKeys: 2 }),
    )
    .map(([known, unknown]) => JSON.stringify({ ...unknown, ...known }));
  const notAnObject = fc.oneof(nastyValue, fc.constant([[{}]])).map((value) => JSON.stringify(value) ?? "null");
  const notJson = fc.oneof(
    fc.constantFrom("", "{", '{"a":', "nul", "[1,", "{'a':1}", "\u0000", '{"a":"\\ud800"', "[".repeat(5000) + "]".repeat(5000), "\ufeff{}"),
    nastyString,
  );
  return fc.oneof(
    { weight: 6, arbitrary: validButOne(fields).map((body) => json(JSON.stringify(body))) },
    { weight: 6, arbitrary: object.map((body) => json(body)) },
    { weight: 1, arbitrary: notAnObject.map((body) => json(body)) },
    { weight: 1, arbitrary: notJson.map((body) => json(body)) },
    // The right body with the wrong type, or no type.
    { weight: 1, arbitrary: fc.tuple(object, fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "")).map(([body, type]) => json(body, type)) },
  );
}

const formString = (valid: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 3, arbitrary: nastyString }, { weight: 1, arbitrary: fc.constant(undefined) });

/** A form body: the route's fields (maybe nasty, repeated or missing), unknown fields, or a malformed body. */
function formBody(fields: Record<string, fc.Arbitrary<string>>) {
  const entries = fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(fields).map(([name, valid]) => [name, formString(valid)]))),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(fields), "games[0].slug", "games[1].rank", "a[b][c]", "__proto__"), nastyString), nastyString), { maxLength: 3 }),
    )
    .map(([known, extra]) => {
      const pairs: Array<[string, string]> = Object.entries(known).filter((pair): pair is [string, string] => pair[1] !== undefined);
      return [...pairs, ...extra];
    });
  const oneBad = validButOne(fields).map((values) => ({
    body: new URLSearchParams(Object.entries(values).map(([name, value]) => [name, String(value)])),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  }));
  const urlEncoded = entries.map((pairs) => ({ body: new URLSearchParams(pairs), headers: { "Content-Type": "application/x-www-form-urlencoded" } }));
  const multipart = entries.map((pairs) => {
    const form = new FormData();
    for (const [name, value] of pairs) form.append(name, value);
    return { body: form, headers: {} };
  });
  const malformed = fc
    .oneof(fc.constantFrom("%", "%zz=%", "a=%ED%A0%80", "a=%00&a=%C0%80", "=&&=", "content=%F0%9F", '{"content":"x"}'), nastyString)
    .map((body) => ({ body, headers: { "Content-Type": "application/x-www-form-urlencoded" } }));
  const wrongType = fc.constantFrom("multipart/form-data", "multipart/form-data; boundary=x", "application/json", "text/plain").map((type) => ({
    body: "content=hello",
    headers: { "Content-Type": type },
  }));
  return fc.oneof({ weight: 6, arbitrary: oneBad }, { weight: 6, arbitrary: urlEncoded }, { weight: 2, arbitrary: multipart }, { weight: 1, arbitrary: malformed }, { weight: 1, arbitrary: wrongType });
}

/** A query string: the route's parameters (maybe nasty or repeated), unknown ones, or a malformed one. */
function queryString(params: Record<string, fc.Arbitrary<string>>) {
  const pairs = fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(params).map(([name, valid]) => [name, formString(valid)]))),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(params)), nastyString), nastyString), { maxLength: 2 }),
    )
    .map(([known, extra]) => `?${new URLSearchParams([...Object.entries(known).filter((pair): pair is [string, string] => pair[1] !== undefined), ...extra])}`);
  return fc.oneof({ weight: 5, arbitrary: pairs }, { weight: 1, arbitrary: fc.constantFrom("?%", "?limit=%zz", "?offset=%00", "?before=%ED%A0%80", "?page=1e999", "?&&==") });
}

/** A path segment that may be anything, percent-encoded as a client would (a lone surrogate as its raw UTF-8). */
const segment = (valid: string) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(valid) }, { weight: 1, arbitrary: nastyString.filter((value) => value.length < 500) }).map((value) =>
    isWellFormed(value) ? encodeURIComponent(value) : `${encodeURIComponent(value.replace(LONE_SURROGATES, ""))}%ED%A0%80`,
  );
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const isWellFormed = (value: string) => !new RegExp(LONE_SURROGATES.source).test(value);

/** A header value a client can send: visible Latin-1 (no NUL or line breaks; fetch refuses them itself). */
const headerValue = (valid: string) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(valid) },
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 300 }) },
  );

// ---------------------------------------------------------------------------------------------------------------
// The table

interface Context {
  app: TestServer;
  stripeApp: TestServer;
  /** A bearer token and a cookie header of the member who sends most requests, with a room they are in. */
  bearer: string;
  cookie: string;
  memberId: string;
  otherId: string;
  roomId: string;
  blockTargetId: string;
  /** Another member's listing (the member may book it), the member's own, and a booking of the member's. */
  listingId: string;
  ownListingId: string;
  bookingId: string;
  /** A completed booking of the member's (as the buyer): what a review is about. */
  completedBookingId: string;
  /** A post of the other member's (the member may see it, not delete it). */
  postId: string;
  /** Sessions that the sign-out and refresh rows may end, so the others keep theirs. */
  logoutCookie: string;
  logoutBearer: string;
  refreshToken: string;
  email: string;
  /** The inquiry form's spam-trap timestamp, as the page renders it, so generated inquiries get past the trap. */
  honeypotValidFrom: string;
}

const honeypot = (ctx: Context) => ({ name__confirm: fc.constant(""), from__confirm: fc.constant(ctx.honeypotValidFrom) });

interface Row {
  /** The route id in the server build (`routes/api.chat.messages`), or `auth:POST /token` for the local auth server. */
  route: string;
  method: string;
  /** How a signed-in caller is known: an /api client's bearer token, or a browser's cookies. */
  as: "bearer" | "cookie";
  request: (ctx: Context) => fc.Arbitrary<Sent>;
  /** Tables a refusal writes on purpose (failed sign-ins are counted; a reused refresh token ends its session). */
  refusalWrites?: string[];
  /** Requests always sent signed in before the generated ones: the known ways the route once failed. */
  examples?: (ctx: Context) => Sent[];
  /** The server this row runs against (the Stripe webhook needs one with Stripe configured). */
  server?: "stripe";
}

const NUL = "\u0000";
const jsonExample = (path: string, body: unknown, method = "POST"): Sent => ({ method, path, body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
const formExample = (path: string, fields: Record<string, string>): Sent => ({
  method: "POST",
  path,
  body: new URLSearchParams(fields),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

/** A browser's push subscription (keys that pass), at an http:// endpoint this server refuses. */
const FUZZ_PUSH = (() => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { endpoint: "http://127.0.0.1:9/push/fuzz", expirationTime: null, keys: { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") } };
})();

/** The community the fuzzed member belongs to (made in beforeAll), so a post may be tagged with it. */
const FUZZ_COMMUNITY_ID = randomUUID();
const uuidLike = fc.constantFrom(randomUUID(), "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11");

const post = (path: string, body: fc.Arbitrary<{ body: Sent["body"]; headers: Record<string, string> }>, method = "POST") =>
  body.map(({ body, headers }) => ({ method, path, body, headers }));
const get = (path: string, query: fc.Arbitrary<string> = fc.constant("")) => query.map((search) => ({ method: "GET", path: path + search }));
const bodyless = (method: string, path: fc.Arbitrary<string>) => path.map((pathname) => ({ method, path: pathname }));

const validListing = { title: "ランク上げ", gameSlug: "apex-legends", description: "説明\nです", pricePerUnit: 500, minutesPerUnit: 60, maxUnits: 2 };
const listingFields = {
  title: text(validListing.title),
  gameSlug: text(validListing.gameSlug),
  description: text(validListing.description),
  pricePerUnit: fc.constantFrom(100, 500, "1000", 50000),
  minutesPerUnit: fc.constantFrom(15, "60", 120),
  maxUnits: fc.constantFrom(1, "8"),
};
const validPayout = { coins: 1_000, bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber: "1234567", accountHolder: "ゲーマー タロウ" };
const payoutFields = {
  coins: fc.constantFrom(999, 1_000, "1,000", "５０００", 2 ** 31),
  bankName: text(validPayout.bankName),
  branchName: text(validPayout.branchName),
  accountType: fc.constantFrom("ordinary", "checking", "savings"),
  accountNumber: fc.constantFrom("1234567", "１２３４５６７", "123456"),
  accountHolder: text(validPayout.accountHolder),
};
/** A start time tomorrow, as seconds, milliseconds, an ISO string and a form's `datetime-local`. */
function purchaseFields() {
  const tomorrow = Date.now() + 86_400_000;
  const local = new Date(tomorrow + 9 * 3600_000).toISOString().slice(0, 16);
  return {
    units: fc.constantFrom(1, "2"),
    desiredStartTime: fc.constantFrom(Math.floor(tomorrow / 1000), tomorrow, new Date(tomorrow).toISOString(), local),
    note: text("よろしくお願いします"),
  };
}
/** A report of something the fuzzed member may see (the other member, their post or listing), or not. */
const reportFields = (ctx: Context) => ({
  targetType: fc.constantFrom("user", "post", "chat_message", "listing", "review", "comment"),
  targetId: fc.constantFrom(ctx.otherId, ctx.postId, ctx.listingId, ctx.memberId, "1", "0", "-1", "abc"),
  reason: fc.constantFrom("spam", "harassment", "inappropriate", "off_platform_payment", "impersonation", "other", "bad"),
  note: text("外部の振込に誘われました"),
});
/** An unsubscribe link's query: signed right for one of the member's kinds, or with nasty parts. */
const unsubscribeQuery = (ctx: Context) =>
  fc.oneof(
    fc.constantFrom(...MAIL_KINDS).map((kind) => new URL(unsubscribeUrl({ siteUrl: ctx.app.url, secret: ctx.app.config.SESSION_SECRET, userId: ctx.memberId, kind })).search),
    queryString({ u: fc.constantFrom(ctx.memberId, ctx.otherId), k: fc.constantFrom(...MAIL_KINDS, "newsletter"), s: nastyString }),
  );
/** A multipart form with text fields and a file (named `fileField`) that may be an image, not one, or half of one. */
const TINY_PNG = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#3a6" } }).png().toBuffer();
function fileForm(fileField: string, fields: Record<string, fc.Arbitrary<string>>) {
  const file = fc.oneof(
    fc.constant(TINY_PNG),
    fc.constant(Buffer.concat([TINY_PNG, Buffer.from("<html><script>alert(1)</script></html>")])),
    fc.constant(TINY_PNG.subarray(0, 30)),
    fc.constant(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  );
  const values = fc.record(Object.fromEntries(Object.entries(fields).map(([name, valid]) => [name, formString(valid)])));
  const multipart = fc
    .tuple(values, fc.option(file), nastyString, fc.constantFrom("image/png", "image/jpeg", "text/html", ""))
    .map(([known, bytes, filename, contentType]) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(known)) if (value !== undefined) form.append(name, value);
      if (bytes) form.append(fileField, new Blob([bytes], { type: contentType }), filename);
      return { body: form, headers: {} };
    });
  return fc.oneof({ weight: 4, arbitrary: multipart }, { weight: 1, arbitrary: formBody(fields) });
}

const stringFields = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  Object.fromEntries(Object.entries(fields).map(([name, arbitrary]) => [name, arbitrary.map(String)]));

const rows: Row[] = [
  // /api JSON routes
  { route: "routes/api.auth.me", method: "GET", as: "bearer", request: () => get("/api/auth/me", queryString({ x: nastyString })) },
  { route: "routes/api.auth.token", method: "GET", as: "bearer", request: () => get("/api/auth/token", queryString({ x: nastyString })) },
  {
    route: "routes/api.chat.messages",
    method: "GET",
    as: "bearer",
    request: (ctx) => get("/api/chat/messages", queryString({ roomId: fc.constant(ctx.roomId), before: fc.constantFrom("1", "999999", "9007199254740991") })),
  },
  {
    route: "routes/api.chat.messages",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      post(
        "/api/chat/messages",
        jsonBody({
          roomId: fc.constant(ctx.roomId),
          content: text("こんにちは\nよろしく"),
          messageType: fc.constant("TEXT"),
          metadata: fc.oneof(fc.constant(null), fc.record({ caption: text("キャプション") })),
        }),
      ),
    examples: (ctx) => [
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, content: `a${NUL}b` }),
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, content: "\ud800" }),
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, content: "a", metadata: { caption: NUL } }),
    ],
  },
  {
    route: "routes/api.chat.rooms.$roomId.mark-read",
    method: "POST",
    as: "bearer",
    request: (ctx) => segment(ctx.roomId).chain((id) => post(`/api/chat/rooms/${id}/mark-read`, jsonBody({}))),
  },
  { route: "routes/api.chat.rooms", method: "GET", as: "bearer", request: () => get("/api/chat/rooms", queryString({ limit: fc.constantFrom("1", "20"), offset: fc.constantFrom("0", "20") })) },
  {
    route: "routes/api.chat.rooms",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      post(
        "/api/chat/rooms",
        jsonBody({ participantIds: fc.constant([ctx.otherId]), type: fc.constantFrom("DIRECT", "GROUP"), name: fc.oneof(fc.constant(null), text("週末APEX部")) }),
      ),
    examples: (ctx) => [jsonExample("/api/chat/rooms", { participantIds: [ctx.otherId], type: "GROUP", name: `部${NUL}屋` })],
  },
  { route: "routes/api.chat.unread-count", method: "GET", as: "bearer", request: () => get("/api/chat/unread-count", queryString({ x: nastyString })) },
  { route: "routes/api.coins.balance", method: "GET", as: "bearer", request: () => get("/api/coins/balance", queryString({ x: nastyString })) },
  { route: "routes/api.coins.history", method: "GET", as: "bearer", request: () => get("/api/coins/history", queryString({ limit: fc.constantFrom("1", "100"), offset: fc.constantFrom("0", "5") })) },
  {
    route: "routes/api.coins.orders",
    method: "POST",
    as: "bearer",
    request: () =>
      fc
        .tuple(fc.option(headerValue(randomUUID())), jsonBody({ packageId: fc.constantFrom(1, 7, "3") }))
        .map(([key, sent]) => ({ method: "POST", path: "/api/coins/orders", body: sent.body, headers: { ...sent.headers, ...(key === null ? {} : { "Idempotency-Key": key }) } })),
  },
  {
    route: "routes/api.listings",
    method: "GET",
    as: "bearer",
    request: (ctx) =>
      get("/api/listings", queryString({ game: text("apex-legends"), sellerId: fc.constant(ctx.otherId), limit: fc.constantFrom("1", "50"), offset: fc.constantFrom("0", "3") })),
  },
  {
    route: "routes/api.listings",
    method: "POST",
    as: "bearer",
    request: () => post("/api/listings", jsonBody(listingFields)),
    examples: () => [jsonExample("/api/listings", { ...validListing, title: `ラン${NUL}ク` }), jsonExample("/api/listings", { ...validListing, pricePerUnit: 1e400 })],
  },
  { route: "routes/api.listings.$id", method: "GET", as: "bearer", request: (ctx) => segment(ctx.listingId).chain((id) => get(`/api/listings/${id}`)) },
  {
    route: "routes/api.listings.$id",
    method: "PATCH",
    as: "bearer",
    request: (ctx) =>
      fc
        .tuple(segment(ctx.ownListingId), jsonBody({ title: text("新しいタイトル"), status: fc.constantFrom("active", "paused"), pricePerUnit: fc.constantFrom(300, "2000") }))
        .chain(([id, sent]) => post(`/api/listings/${id}`, fc.constant(sent), "PATCH")),
  },
  {
    route: "routes/api.listings.$id.purchase",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      fc
        .tuple(segment(ctx.listingId), fc.option(headerValue(randomUUID())), jsonBody(purchaseFields()))
        .map(([id, key, sent]) => ({ method: "POST", path: `/api/listings/${id}/purchase`, body: sent.body, headers: { ...sent.headers, ...(key === null ? {} : { "Idempotency-Key": key }) } })),
  },
  { route: "routes/api.tickets.all", method: "GET", as: "bearer", request: () => get("/api/tickets/all", queryString({ x: nastyString })) },
  {
    route: "routes/api.tickets.$id.$action",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      fc
        .tuple(segment(ctx.bookingId), fc.constantFrom("accept", "cancel", "start", "extend", "check-in", "complete", "refund"), fc.option(headerValue(randomUUID())), jsonBody({ units: fc.constantFrom(1, "2") }))
        .map(([id, action, key, sent]) => ({ method: "POST", path: `/api/tickets/${id}/${action}`, body: sent.body, headers: { ...sent.headers, ...(key === null ? {} : { "Idempotency-Key": key }) } })),
  },
  {
    route: "routes/api.reviews",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      post("/api/reviews", jsonBody({ bookingId: fc.constantFrom(ctx.completedBookingId, ctx.bookingId), rating: fc.constantFrom(1, 5, "3"), comment: text("楽しかったです"), tipAmount: fc.constantFrom(0, 100, "300") })),
    examples: (ctx) => [jsonExample("/api/reviews", { bookingId: ctx.completedBookingId, rating: 5, comment: `良${NUL}い`, tipAmount: 0 }), jsonExample("/api/reviews", { bookingId: ctx.completedBookingId, rating: 5, tipAmount: 150 })],
  },
  { route: "routes/api.payouts", method: "GET", as: "bearer", request: () => get("/api/payouts", queryString({ x: nastyString })) },
  {
    route: "routes/api.payouts",
    method: "POST",
    as: "bearer",
    request: () =>
      fc
        .tuple(fc.option(headerValue(randomUUID())), jsonBody(payoutFields))
        .map(([key, sent]) => ({ method: "POST", path: "/api/payouts", body: sent.body, headers: { ...sent.headers, ...(key === null ? {} : { "Idempotency-Key": key }) } })),
    examples: () => [
      { ...jsonExample("/api/payouts", { ...validPayout, bankName: `銀${NUL}行` }), headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() } },
      { ...jsonExample("/api/payouts", { ...validPayout, coins: 2 ** 31 }), headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() } },
    ],
  },
  { route: "routes/api.coins.packages", method: "GET", as: "bearer", request: () => get("/api/coins/packages", queryString({ x: nastyString })) },
  {
    route: "routes/api.posts.create",
    method: "POST",
    as: "bearer",
    request: () =>
      post("/api/posts/create", jsonBody({ content: text("今日もランクマ\n頑張る"), imageUrl: fc.constantFrom(null, "https://example.jp/a.png", "/uploads/post/x.png"), isPublic: fc.constantFrom(true, false, "true"), communityId: fc.constantFrom(null, "", FUZZ_COMMUNITY_ID, randomUUID()) })),
    examples: () => [jsonExample("/api/posts/create", { content: `投${NUL}稿`, imageUrl: null, isPublic: true }), jsonExample("/api/posts/create", { content: null, imageUrl: `/uploads/${NUL}`, isPublic: true })],
  },
  {
    route: "routes/api.posts",
    method: "GET",
    as: "bearer",
    request: (ctx) =>
      get("/api/posts", queryString({ cursor: fc.constantFrom(`1732350000123_${ctx.postId}`, "99999999999999_7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11"), authorId: fc.constant(ctx.otherId), withImage: fc.constantFrom("1", "false"), limit: fc.constantFrom("1", "50") })),
  },
  { route: "routes/api.store.subscription-plan", method: "GET", as: "bearer", request: () => get("/api/store/subscription-plan", queryString({ x: nastyString })) },
  {
    route: "routes/api.store.subscription-plan",
    method: "PUT",
    as: "bearer",
    request: () => post("/api/store/subscription-plan", jsonBody({ monthlyPrice: fc.constantFrom(100, 500, "1000", 50_000), description: text("限定の攻略メモ\nです") }), "PUT"),
    examples: () => [jsonExample("/api/store/subscription-plan", { monthlyPrice: 500, description: `限定${NUL}` }, "PUT")],
  },
  { route: "routes/api.store.subscription-plan", method: "DELETE", as: "bearer", request: () => post("/api/store/subscription-plan", jsonBody({}), "DELETE") },
  {
    route: "routes/api.subscriptions",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      fc
        .tuple(fc.option(headerValue(randomUUID()), { nil: null }), jsonBody({ subscribeeId: fc.constantFrom(ctx.otherId, ctx.memberId, ctx.blockTargetId) }))
        .map(([key, sent]) => ({ method: "POST", path: "/api/subscriptions", body: sent.body, headers: { ...sent.headers, ...(key === null ? {} : { "Idempotency-Key": key }) } })),
  },
  { route: "routes/api.user.communities", method: "GET", as: "bearer", request: () => get("/api/user/communities", queryString({ x: nastyString })) },
  { route: "routes/api.user.subscriptions", method: "GET", as: "bearer", request: () => get("/api/user/subscriptions", queryString({ x: nastyString })) },
  { route: "routes/api.posts.$id", method: "GET", as: "bearer", request: (ctx) => segment(ctx.postId).chain((id) => get(`/api/posts/${id}`)) },
  { route: "routes/api.posts.$id", method: "DELETE", as: "bearer", request: (ctx) => segment(ctx.postId).chain((id) => post(`/api/posts/${id}`, jsonBody({}), "DELETE")) },
  {
    route: "routes/api.notifications",
    method: "GET",
    as: "bearer",
    request: () =>
      get("/api/notifications", queryString({ limit: fc.constantFrom("1", "50"), offset: fc.constantFrom("0", "3"), prioritizeUnread: fc.constantFrom("true", "0"), countOnly: fc.constantFrom("1", "false") })),
  },
  { route: "routes/api.notifications", method: "PATCH", as: "bearer", request: () => post("/api/notifications", jsonBody({}), "PATCH") },
  { route: "routes/api.user.online-status", method: "POST", as: "bearer", request: () => post("/api/user/online-status", jsonBody({})) },
  {
    route: "routes/api.user.profile",
    method: "POST",
    as: "bearer",
    request: () =>
      post(
        "/api/user/profile",
        jsonBody({
          displayName: text("そら"),
          bio: text("APEXとスプラが好き。\n夜に遊びます"),
          avatarUrl: fc.constantFrom("https://example.jp/a.png", "http://example.jp/\u0000.png"),
          games: fc.array(fc.record({ slug: text("apex-legends"), rank: text("ダイヤ") }), { maxLength: 3 }),
        }),
      ),
    examples: () => [
      jsonExample("/api/user/profile", { displayName: `そ${NUL}ら` }),
      jsonExample("/api/user/profile", { displayName: "そら", bio: `よろしく${NUL}` }),
      jsonExample("/api/user/profile", { displayName: "そら", games: [{ slug: `apex${NUL}` }] }),
      jsonExample("/api/user/profile", { displayName: "そら", avatarUrl: `https://example.jp/${NUL}.png` }),
    ],
  },
  // Every attempt counts towards the hourly upload limit, refused ones too (ADR 017).
  { route: "routes/api.uploads", method: "POST", as: "bearer", refusalWrites: ["rate_limit_windows"], request: () => post("/api/uploads", fileForm("file", { type: fc.constantFrom("post", "avatar", "chat") })) },
  { route: "routes/api.users.$id.block", method: "POST", as: "bearer", request: (ctx) => segment(ctx.blockTargetId).chain((id) => post(`/api/users/${id}/block`, jsonBody({}))) },
  { route: "routes/api.users.$id.block", method: "DELETE", as: "bearer", request: (ctx) => segment(ctx.blockTargetId).chain((id) => post(`/api/users/${id}/block`, jsonBody({}), "DELETE")) },
  // Without Stripe configured the webhook is a 404; with it, bodies are sent unsigned, wrongly signed and signed.
  { route: "routes/api.webhooks.stripe", method: "POST", as: "bearer", request: () => post("/api/webhooks/stripe", jsonBody({ id: nastyString })) },
  {
    route: "routes/api.webhooks.stripe",
    method: "POST",
    as: "bearer",
    server: "stripe",
    request: () => stripeEvent(),
    examples: () => [signedEvent(JSON.stringify({ id: "evt_nul", type: NUL, data: { object: { id: "cs_1" } } })), signedEvent(JSON.stringify({ id: "evt_nodata", type: "ping" }))],
  },

  // Page form actions (and the query strings of the pages they belong to)
  {
    route: "routes/_documentation.inquiry",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      post(
        "/inquiry",
        formBody({
          ...honeypot(ctx),
          name: text("山田"),
          email: fc.constant("a@example.jp"),
          category: fc.constantFrom("trouble", "admin"),
          body: text("不具合です\r\n再現手順"),
        }),
      ),
    examples: (ctx) => [
      formExample("/inquiry", { name__confirm: "", from__confirm: ctx.honeypotValidFrom, name: "山田", email: "a@example.jp", category: "trouble", body: `不具合${NUL}です` }),
    ],
  },
  {
    route: "routes/_default.login",
    method: "POST",
    as: "cookie",
    refusalWrites: ["rate_limit_events"],
    request: (ctx) => post("/login", formBody({ email: fc.constantFrom(ctx.email, uniqueEmail()), password: fc.constantFrom("wrong-password", "x"), redirectTo: text("/chat?x=1") })),
  },
  {
    route: "routes/_default.signup",
    method: "POST",
    as: "cookie",
    request: () => post("/signup", formBody({ email: fc.constant(null).map(() => uniqueEmail("fuzz")), password: fc.constantFrom(PASSWORD, "short"), redirectTo: text("/chat") })),
  },
  // An account's life beyond sign-in (issue 26). The fuzz member's own password is never the one sent as current.
  {
    route: "routes/_default.forgot-password",
    method: "POST",
    as: "cookie",
    request: (ctx) => post("/forgot-password", formBody({ email: fc.constantFrom(ctx.email, uniqueEmail("nobody"), "not-an-address") })),
    examples: () => [formExample("/forgot-password", { email: `${NUL}${uniqueEmail("nul")}` })],
  },
  { route: "routes/_default.auth.confirm", method: "GET", as: "cookie", request: () => get("/auth/confirm", queryString({ token_hash: text("0123456789abcdef"), type: fc.constantFrom("recovery", "signup", "email_change", "magiclink") })) },
  {
    route: "routes/_default.auth.confirm",
    method: "POST",
    as: "cookie",
    request: () => post("/auth/confirm", formBody({ token_hash: text("0123456789abcdef"), type: fc.constantFrom("recovery", "signup", "email_change", "invite") })),
    examples: () => [formExample("/auth/confirm", { token_hash: `a${NUL}b`, type: "recovery" })],
  },
  {
    route: "routes/_default.reset-password",
    method: "POST",
    as: "cookie",
    request: () => post("/reset-password", formBody({ password: fc.constantFrom("short", "x".repeat(80)), confirmPassword: text("short") })),
  },
  {
    route: "routes/_settings.settings.password",
    method: "POST",
    as: "cookie",
    refusalWrites: ["rate_limit_events"],
    request: () => post("/settings/password", formBody({ currentPassword: fc.constantFrom("wrong-password", ""), password: text("a-new-password-1"), confirmPassword: text("a-new-password-1") })),
  },
  {
    route: "routes/_settings.settings.email",
    method: "POST",
    as: "cookie",
    request: () => post("/settings/email", formBody({ email: fc.oneof(fc.constant(null).map(() => uniqueEmail("moved")), text("a@example.jp")) })),
    examples: () => [formExample("/settings/email", { email: `moved${NUL}@example.jp` })],
  },
  {
    route: "routes/_profile.mypage.gamer-edit",
    method: "POST",
    as: "cookie",
    request: () =>
      post(
        "/mypage/gamer-edit",
        formBody({ displayName: text("ハル"), bio: text("よろしく\r\nお願いします"), avatarUrl: fc.constant("https://example.jp/a.png"), "games[0].slug": text("apex-legends"), "games[0].rank": text("ゴールド"), redirectTo: text("/mypage?tab=1#top") }),
      ),
    examples: () => [formExample("/mypage/gamer-edit", { displayName: `ハル${NUL}` }), formExample("/mypage/gamer-edit", { displayName: "ハル", redirectTo: "/mypage/あ\u0001" })],
  },
  {
    route: "routes/_chat.chat.$roomId",
    method: "POST",
    as: "cookie",
    request: (ctx) => segment(ctx.roomId).chain((id) => post(`/chat/${id}`, formBody({ content: text("フォームから\r\n失礼します") }))),
    examples: (ctx) => [formExample(`/chat/${ctx.roomId}`, { content: `フォーム${NUL}` })],
  },
  { route: "routes/_chat.chat.$roomId", method: "GET", as: "cookie", request: (ctx) => get(`/chat/${ctx.roomId}`, queryString({ before: fc.constantFrom("1", "100") })) },
  { route: "routes/_chat.chat._index", method: "GET", as: "cookie", request: (ctx) => get("/chat", queryString({ page: fc.constantFrom("0", "1"), with: fc.constant(ctx.otherId) })) },
  { route: "routes/_default.notifications", method: "POST", as: "cookie", request: () => fc.tuple(queryString({ page: fc.constantFrom("0", "2") }), formBody({})).chain(([search, form]) => post(`/notifications${search}`, fc.constant(form))) },
  // Signed in, /login and /signup send the visitor on to redirectTo: it must become a valid Location header.
  { route: "routes/_default.login", method: "GET", as: "cookie", request: () => get("/login", queryString({ redirectTo: text("/chat/あ?x=1#y") })) },
  { route: "routes/_default.signup", method: "GET", as: "cookie", request: () => get("/signup", queryString({ redirectTo: text("/mypage") })) },
  { route: "routes/auth.callback", method: "GET", as: "cookie", request: () => get("/auth/callback", queryString({ code: text("0b8a2f9c-code") })) },
  { route: "routes/_default.notifications", method: "GET", as: "cookie", request: () => get("/notifications", queryString({ page: fc.constantFrom("0", "1") })) },
  { route: "routes/_settings.settings.coin-history", method: "GET", as: "cookie", request: () => get("/settings/coin-history", queryString({ page: fc.constantFrom("0", "1") })) },
  {
    route: "routes/_default.coins.checkout.$id",
    method: "POST",
    as: "cookie",
    request: () => fc.tuple(segment("2"), formBody({ idempotencyKey: fc.constant(null).map(() => randomUUID()) })).chain(([id, form]) => post(`/coins/checkout/${id}`, fc.constant(form))),
  },
  {
    route: "routes/_store.mypage.ticket-registration",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      post(
        "/mypage/ticket-registration",
        formBody({
          intent: fc.constantFrom("status", "save"),
          listingId: fc.constant(ctx.ownListingId),
          status: fc.constantFrom("active", "paused"),
          title: text("フォームのチケット"),
          gameSlug: text("apex-legends"),
          description: text("説明\r\nです"),
          pricePerUnit: fc.constantFrom("100", "50000"),
          minutesPerUnit: fc.constantFrom("15", "120"),
          maxUnits: fc.constantFrom("1", "8"),
        }),
      ),
  },
  {
    route: "routes/_store.settings.store.transfer",
    method: "POST",
    as: "cookie",
    request: () =>
      post("/settings/store/transfer", formBody({ ...stringFields(payoutFields), intent: fc.constantFrom("confirm", "request", "edit"), idempotencyKey: fc.constant(null).map(() => randomUUID()) })),
  },
  { route: "routes/_store.settings.store.transfer", method: "GET", as: "cookie", request: () => get("/settings/store/transfer", queryString({ key: fc.constant(null).map(() => randomUUID()) })) },
  {
    route: "routes/_default.tickets.$id.confirm",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      fc
        .tuple(segment(ctx.listingId), formBody({ ...stringFields(purchaseFields()), idempotencyKey: fc.constant(null).map(() => randomUUID()) }))
        .chain(([id, form]) => post(`/tickets/${id}/confirm`, fc.constant(form))),
  },
  {
    route: "routes/_default.tickets.$id.confirm",
    method: "GET",
    as: "cookie",
    request: (ctx) => get(`/tickets/${ctx.listingId}/confirm`, queryString({ ...stringFields(purchaseFields()), key: fc.constant(null).map(() => randomUUID()) })),
  },
  { route: "routes/_default.tickets._index", method: "GET", as: "cookie", request: (ctx) => get("/tickets", queryString({ game: text("apex-legends"), seller: fc.constant(ctx.otherId), page: fc.constantFrom("0", "1") })) },
  {
    route: "routes/_settings.settings.ticket-management",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      post(
        "/settings/ticket-management",
        formBody({
          bookingId: fc.constant(ctx.bookingId),
          intent: fc.constantFrom("accept", "cancel", "start", "extend", "check-in", "complete"),
          units: fc.constantFrom("1", "3"),
          idempotencyKey: fc.constant(null).map(() => randomUUID()),
          redirectTo: text("/settings/ticket-management?role=buyer"),
        }),
      ),
  },
  { route: "routes/_settings.settings.ticket-management", method: "GET", as: "cookie", request: () => get("/settings/ticket-management", queryString({ role: fc.constantFrom("buyer", "seller") })) },
  {
    route: "routes/_settings.settings.ticket-management_.$id.review",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      segment(ctx.completedBookingId).chain((id) =>
        post(`/settings/ticket-management/${id}/review`, formBody({ rating: fc.constantFrom("1", "5"), comment: text("また遊びましょう\r\n！"), tipAmount: fc.constantFrom("0", "100", "50000") })),
      ),
  },
  { route: "routes/_settings.settings.ticket-management_.$id.review", method: "GET", as: "cookie", request: (ctx) => segment(ctx.completedBookingId).chain((id) => get(`/settings/ticket-management/${id}/review`)) },
  { route: "routes/_settings.settings._index", method: "POST", as: "cookie", request: () => post("/settings?index", formBody({ intent: fc.oneof(fc.constantFrom("link-discord", "unlink-discord"), nastyString) })) },
  // Leaving (退会, issue 26): only wrong passwords, so the member stays; a wrong one is a counted sign-in failure.
  {
    route: "routes/_settings.settings.account",
    method: "POST",
    as: "cookie",
    refusalWrites: ["rate_limit_events"],
    request: () => post("/settings/account", formBody({ password: fc.constantFrom("wrong-password", ""), confirm: fc.constantFrom("on", "off", "") })),
  },
  { route: "routes/_settings.settings.account", method: "GET", as: "cookie", request: () => get("/settings/account", queryString({ x: nastyString })) },
  // Notification mails (issue 26): the settings form's boxes, and the signed unsubscribe link (a right one for each kind,
  // or a nasty signature) opened and POSTed as RFC 8058's one-click, signed in or not.
  { route: "routes/_settings.settings.notifications", method: "POST", as: "cookie", request: () => post("/settings/notifications", formBody({ kinds: fc.constantFrom(...MAIL_KINDS, "newsletter") })) },
  {
    route: "routes/_settings.settings.notifications",
    method: "POST",
    as: "cookie",
    request: () =>
      post("/settings/notifications", formBody({ intent: fc.constantFrom("push-kinds", "remove-device"), pushKinds: fc.constantFrom(...PUSH_KINDS, "sms"), deviceId: fc.constantFrom("1", "0", "abc") })),
  },
  // Web Push (issue 39): a browser's subscription, its keys and endpoint bent every way. Its endpoint is http:// (this
  // server takes https:// only), so none is stored: a device here would be sent the other rows' pushes meanwhile.
  { route: "routes/api.push.subscriptions", method: "GET", as: "bearer", request: () => get("/api/push/subscriptions", queryString({ x: nastyString })) },
  {
    route: "routes/api.push.subscriptions",
    method: "POST",
    as: "bearer",
    request: () =>
      post(
        "/api/push/subscriptions",
        jsonBody({ endpoint: fc.constantFrom(FUZZ_PUSH.endpoint, "javascript:alert(1)"), keys: fc.constant(FUZZ_PUSH.keys), expirationTime: fc.constantFrom(null, 0) }),
      ),
    examples: () => [jsonExample("/api/push/subscriptions", FUZZ_PUSH), jsonExample("/api/push/subscriptions", { ...FUZZ_PUSH, keys: { p256dh: FUZZ_PUSH.keys.p256dh, auth: "A".repeat(22) + "==" } })],
  },
  { route: "routes/api.push.subscriptions", method: "DELETE", as: "bearer", request: () => post("/api/push/subscriptions", jsonBody({ endpoint: fc.constant(FUZZ_PUSH.endpoint) }), "DELETE") },
  { route: "routes/api.push.subscriptions.$id", method: "DELETE", as: "bearer", request: () => segment("1").chain((id) => bodyless("DELETE", fc.constant(`/api/push/subscriptions/${id}`))) },
  {
    route: "routes/_default.unsubscribe",
    method: "POST",
    as: "cookie",
    request: (ctx) => fc.tuple(unsubscribeQuery(ctx), formBody({ "List-Unsubscribe": fc.constant("One-Click") })).chain(([search, form]) => post(`/unsubscribe${search}`, fc.constant(form))),
  },
  { route: "routes/_default.unsubscribe", method: "GET", as: "cookie", request: (ctx) => unsubscribeQuery(ctx).map((search) => ({ method: "GET", path: `/unsubscribe${search}` })) },
  // Reports (通報, issue 27): each target type with a right id, another's, a malformed or huge one; each reason and
  // not; the API, the /report page's form (with and without redirectTo, as the dialog posts it) and its query.
  { route: "routes/api.reports", method: "GET", as: "bearer", request: () => get("/api/reports", queryString({ x: nastyString })) },
  {
    route: "routes/api.reports",
    method: "POST",
    as: "bearer",
    request: (ctx) => post("/api/reports", jsonBody(reportFields(ctx))),
    examples: (ctx) => [
      jsonExample("/api/reports", { targetType: "user", targetId: ctx.otherId, reason: "spam", note: `悪${NUL}質` }),
      jsonExample("/api/reports", { targetType: "chat_message", targetId: "9223372036854775808", reason: "spam" }),
      jsonExample("/api/reports", { targetType: "post", targetId: `${ctx.postId}${NUL}`, reason: "other" }),
    ],
  },
  { route: "routes/_default.report", method: "POST", as: "cookie", request: (ctx) => post("/report", formBody({ ...stringFields(reportFields(ctx)), redirectTo: text("/feed") })) },
  {
    route: "routes/_default.report",
    method: "GET",
    as: "cookie",
    request: (ctx) => get("/report", queryString({ type: fc.constantFrom("user", "post", "listing", "review", "chat_message", "comment"), id: fc.constantFrom(ctx.otherId, ctx.postId, ctx.listingId, "1", "abc"), redirectTo: text("/feed") })),
  },
  { route: "routes/_settings.settings.reports", method: "GET", as: "cookie", request: () => get("/settings/reports", queryString({ x: nastyString })) },
  // The page's image counts towards the upload limit inside the post's transaction: a refusal writes nothing at all.
  { route: "routes/_default.posts.new", method: "POST", as: "cookie", request: () => post("/posts/new", fileForm("image", { content: text("フォームから\r\n投稿"), isPublic: fc.constantFrom("true", "false"), redirectTo: text("/feed") })) },
  // Both forms answer with a redirect back and a toast (a refusal's reason in an error toast).
  { route: "routes/mypage.avatar", method: "POST", as: "cookie", request: () => fc.oneof(post("/mypage/avatar", fileForm("avatar", {})), post("/mypage/avatar", formBody({ intent: fc.constantFrom("remove", "delete") }))) },
  {
    route: "routes/_store.settings.store.subscription",
    method: "POST",
    as: "cookie",
    request: () => post("/settings/store/subscription", formBody({ intent: fc.constantFrom("save", "withdraw"), monthlyPrice: fc.constantFrom("100", "300", "50000"), description: text("限定配信\r\nです") })),
  },
  {
    route: "routes/_profile.u.$uid_.subscribe",
    method: "POST",
    as: "cookie",
    request: (ctx) => segment(ctx.otherId).chain((id) => post(`/u/${id}/subscribe`, formBody({ idempotencyKey: fc.constant(null).map(() => randomUUID()) }))),
  },
  { route: "routes/_profile.u.$uid_.subscribe", method: "GET", as: "cookie", request: (ctx) => segment(ctx.otherId).chain((id) => get(`/u/${id}/subscribe`, queryString({ key: fc.constant(null).map(() => randomUUID()) }))) },
  { route: "routes/posts.$id.delete", method: "POST", as: "cookie", request: (ctx) => segment(ctx.postId).chain((id) => post(`/posts/${id}/delete`, formBody({ redirectTo: text("/feed?cursor=1") }))) },
  { route: "routes/_profile.u.$uid", method: "POST", as: "cookie", request: (ctx) => segment(ctx.blockTargetId).chain((id) => post(`/u/${id}`, formBody({ intent: fc.constantFrom("block", "unblock", "mute") }))) },
  { route: "routes/_default.feed", method: "GET", as: "cookie", request: (ctx) => get("/feed", queryString({ cursor: fc.constant(`1732350000123_${ctx.postId}`) })) },
  // The profile's layout records the visit (a footprint) while its child refuses a bad query: that write is the visit's.
  { route: "routes/_profile.u.$uid.posts", method: "GET", as: "cookie", refusalWrites: ["footprints"], request: (ctx) => segment(ctx.otherId).chain((id) => get(`/u/${id}/posts`, queryString({ cursor: fc.constant(`1732350000123_${ctx.postId}`) }))) },
  {
    route: "routes/_profile.u.$uid.gallery",
    method: "GET",
    as: "cookie",
    refusalWrites: ["footprints"],
    request: (ctx) => segment(ctx.otherId).chain((id) => get(`/u/${id}/gallery`, queryString({ cursor: fc.constant(`1732350000123_${ctx.postId}`), photo: fc.constant(ctx.postId) }))),
  },
  { route: "routes/_default.mypage.footprints", method: "GET", as: "cookie", request: () => get("/mypage/footprints", queryString({ page: fc.constantFrom("0", "1") })) },
  // Communities (issue 16): joining and leaving as a plain form, its page's cursor, the new post page's preselection.
  { route: "routes/_default.community.$slug", method: "POST", as: "cookie", request: () => segment("fuzz-community").chain((slug) => post(`/community/${slug}`, formBody({ intent: fc.constantFrom("join", "leave") }))) },
  { route: "routes/_default.community.$slug", method: "GET", as: "cookie", request: (ctx) => get("/community/fuzz-community", queryString({ cursor: fc.constant(`1732350000123_${ctx.postId}`) })) },
  { route: "routes/_default.posts.new", method: "GET", as: "cookie", request: () => get("/posts/new", queryString({ community: text("fuzz-community") })) },
  {
    route: "routes/_default.$",
    method: "POST",
    as: "cookie",
    request: () => segment("no-such-page").chain((page) => post(`/${page}`, formBody({ a: nastyString }))),
    // A path that reads as another host (`/\Isc:[gv…`) made React Router's URL parser throw: a 500, GET or POST.
    examples: () =>
      ["/%5CIsc%3A%5Bgv%EF%BF%BDy%25", "/%2F%2Fexample.com%3A99999", "/%5C%5Cx%3Ay"].flatMap((path) => [
        { method: "POST", path, body: "a=b", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
        { method: "GET", path },
      ]),
  },
  { route: "routes/auth.discord", method: "POST", as: "cookie", request: () => post("/auth/discord", formBody({ redirectTo: text("/chat") })) },
  { route: "routes/_settings.settings.privacy", method: "POST", as: "cookie", request: () => post("/settings/privacy", formBody({ showDiscordGuilds: fc.oneof(fc.constantFrom("on", "off", ""), nastyString) })) },
  { route: "routes/logout", method: "POST", as: "cookie", request: () => post("/logout", formBody({ scope: fc.constantFrom("local", "global", "others") })) },
  // Events (issue 16): the join/leave form of an event made below, and the list's game filter and paging.
  { route: "routes/_default.events.$id", method: "POST", as: "cookie", request: () => segment(fuzzEventId).chain((id) => post(`/events/${id}`, formBody({ intent: fc.constantFrom("join", "leave") }))) },
  { route: "routes/_default.events._index", method: "GET", as: "cookie", request: () => get("/events", queryString({ game: fc.constantFrom("apex-legends", ""), page: fc.constantFrom("0", "1"), pastPage: fc.constantFrom("0", "2") })) },
  // Explore (issue 16): every filter of the query string, valid and not (a keyword with NUL, a lone surrogate, LIKE's own characters).
  {
    route: "routes/_default.explore",
    method: "GET",
    as: "cookie",
    request: () =>
      get(
        "/explore",
        queryString({
          q: fc.constantFrom("げっこう", "スト6", "100%", "a_b", "", `x${NUL}y`, "\ud800あ"),
          game: fc.constantFrom("apex-legends", "", "../x"),
          online: fc.constantFrom("1", "", "true"),
          minPrice: fc.constantFrom("100", "", "-1", "1e9"),
          maxPrice: fc.constantFrom("5000", "", "abc"),
          minRating: fc.constantFrom("4", "4.5", "6"),
          minutes: fc.constantFrom("30", "45"),
          sort: fc.constantFrom("recommended", "rating", "price", "newest", "cheap"),
          page: fc.constantFrom("0", "3", "-1", "100000"),
        }),
      ),
  },

  // The local Supabase Auth endpoints (server/auth/local-auth.ts)
  {
    route: "auth:POST /signup",
    method: "POST",
    as: "bearer",
    request: () =>
      post(
        "/auth/v1/signup",
        jsonBody({
          email: fc.constant(null).map(() => uniqueEmail("fuzz")),
          password: fc.constantFrom(PASSWORD, "short"),
          data: fc.oneof(fc.constant({}), fc.dictionary(nastyString, nastyValue, { maxKeys: 3 }), fc.constant({ a: { b: { c: ["\u0000"] } } })),
        }),
      ),
    examples: () => [
      jsonExample("/auth/v1/signup", { email: uniqueEmail("nul"), password: PASSWORD, data: { name: NUL } }),
      jsonExample("/auth/v1/signup", { email: `${NUL}${uniqueEmail("nul")}`, password: PASSWORD }),
      jsonExample("/auth/v1/signup", null),
    ],
  },
  {
    route: "auth:POST /token",
    method: "POST",
    as: "bearer",
    refusalWrites: ["rate_limit_events"],
    request: (ctx) =>
      fc
        .tuple(fc.constantFrom("password", "password", "refresh_token", "", "%00", "id_token"), jsonBody({ email: fc.constantFrom(ctx.email, uniqueEmail()), password: fc.constantFrom("wrong-password", ""), refresh_token: nastyString }))
        .map(([grant, sent]) => ({ method: "POST", path: `/auth/v1/token?grant_type=${grant}`, ...sent })),
  },
  {
    route: "auth:POST /token",
    method: "POST",
    as: "bearer",
    refusalWrites: ["auth_sessions"],
    request: (ctx) => post("/auth/v1/token?grant_type=refresh_token", jsonBody({ refresh_token: fc.constant(ctx.refreshToken) })),
  },
  { route: "auth:GET /user", method: "GET", as: "bearer", request: () => get("/auth/v1/user", queryString({ x: nastyString })) },
  {
    route: "auth:PUT /user",
    method: "PUT",
    as: "bearer",
    refusalWrites: ["rate_limit_events"],
    request: () =>
      post(
        "/auth/v1/user",
        jsonBody({
          password: fc.constantFrom("a-new-password-1", "short"),
          current_password: fc.constantFrom("wrong-password", ""),
          email: fc.constantFrom("a@example.jp", "not-an-address"),
          data: fc.oneof(fc.dictionary(nastyString, nastyValue, { maxKeys: 3 }), fc.constantFrom({ blob: "x".repeat(9000) }, ["a"], "text")),
        }),
        "PUT",
      ),
    examples: () => [
      { method: "PUT", path: "/auth/v1/user", body: JSON.stringify({ email: `x${NUL}@example.jp` }), headers: { "Content-Type": "application/json" } },
      { method: "PUT", path: "/auth/v1/user", body: JSON.stringify({ data: { name: NUL } }), headers: { "Content-Type": "application/json" } },
    ],
  },
  { route: "auth:GET /settings", method: "GET", as: "bearer", request: () => get("/auth/v1/settings", queryString({ x: nastyString })) },
  {
    route: "auth:POST /recover",
    method: "POST",
    as: "bearer",
    request: (ctx) => post("/auth/v1/recover", jsonBody({ email: fc.constantFrom(ctx.email, uniqueEmail("nobody"), "not-an-address") })),
    examples: () => [jsonExample("/auth/v1/recover", { email: `${NUL}${uniqueEmail("nul")}` }), jsonExample("/auth/v1/recover", null)],
  },
  {
    route: "auth:POST /verify",
    method: "POST",
    as: "bearer",
    request: () => post("/auth/v1/verify", jsonBody({ type: fc.constantFrom("recovery", "signup", "email", "email_change", "magiclink"), token_hash: text("0123456789abcdef") })),
    examples: () => [jsonExample("/auth/v1/verify", { type: "recovery", token_hash: `a${NUL}` }), jsonExample("/auth/v1/verify", [])],
  },
  {
    route: "auth:POST /logout",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      fc
        .tuple(fc.constantFrom("local", "global", "others", "%00", ""), jsonBody({}), fc.constantFrom(`Bearer ${ctx.logoutBearer}`, "Bearer x.y.z", "Basic abc", ""))
        .map(([scope, sent, authorization]) => ({ method: "POST", path: `/auth/v1/logout?scope=${scope}`, body: sent.body, headers: { ...sent.headers, Authorization: authorization } })),
  },
  // Discordでログイン (issue 36): the OAuth flow's endpoints, against a Discord that is never reached (an unknown
  // state never gets that far, and /authorize only stores a flow and names Discord's URL).
  ...(["auth:GET /authorize", "auth:GET /user/identities/authorize"] as const).map(
    (route): Row => ({
      route,
      method: "GET",
      as: "bearer",
      request: () =>
        get(
          route === "auth:GET /authorize" ? "/auth/v1/authorize" : "/auth/v1/user/identities/authorize",
          queryString({
            provider: fc.constantFrom("discord", "google", ""),
            code_challenge: fc.oneof(fc.constant("a".repeat(43)), nastyString),
            code_challenge_method: fc.constantFrom("s256", "S256", "plain", "rsa"),
            redirect_to: fc.oneof(fc.constantFrom("https://evil.example/", "javascript:alert(1)", "//evil.example", "http://localhost/auth/callback"), nastyString),
            skip_http_redirect: fc.constantFrom("true", "false"),
          }),
        ),
    }),
  ),
  {
    route: "auth:GET /callback",
    method: "GET",
    as: "bearer",
    request: () => get("/auth/v1/callback", queryString({ state: nastyString, code: nastyString, error: fc.constantFrom("access_denied", "server_error", "") })),
  },
  {
    route: "auth:POST /token",
    method: "POST",
    as: "bearer",
    request: () => post("/auth/v1/token?grant_type=pkce", jsonBody({ auth_code: fc.oneof(uuidLike, nastyString), code_verifier: fc.oneof(fc.constant("v".repeat(43)), nastyString) })),
  },
  {
    route: "auth:DELETE /user/identities/{identity_id}",
    method: "DELETE",
    as: "bearer",
    request: () => bodyless("DELETE", fc.oneof(uuidLike.map(encodeURIComponent), segment(randomUUID())).map((id) => `/auth/v1/user/identities/${id}`)),
  },
  {
    route: "auth:other",
    method: "PUT",
    as: "bearer",
    request: () =>
      fc
        .tuple(fc.constantFrom("PUT", "DELETE", "PATCH", "POST", "GET"), segment("admin"), jsonBody({}))
        .map(([method, name, sent]) => (method === "GET" ? { method, path: `/auth/v1/${name}` } : { method, path: `/auth/v1/${name}`, ...sent })),
  },
];

/** A Stripe event as the webhook receives it: signed right, signed wrong, or not signed, with a nasty body. */
function stripeEvent(): fc.Arbitrary<Sent> {
  const session = fc.record({ id: field(text("cs_test_1")), payment_status: field(fc.constantFrom("paid", "unpaid")), metadata: field(fc.record({ orderId: field(fc.constantFrom("1", "99")) })) });
  const event = fc
    .record({ id: field(text("evt_fuzz")), type: field(fc.constantFrom("checkout.session.completed", "checkout.session.expired", "checkout.session.async_payment_failed", "ping")), data: field(fc.record({ object: field(session) })) })
    .map((value) => JSON.stringify(value));
  const body = fc.oneof({ weight: 5, arbitrary: event }, { weight: 1, arbitrary: fc.oneof(nastyString, fc.constantFrom("null", "[]", "{", '"evt"', "1")) });
  return fc.tuple(body, fc.constantFrom("signed", "signed", "signed", "wrong", "none")).map(([payload, signing]) => {
    if (signing === "none") return { method: "POST", path: "/api/webhooks/stripe", body: payload, headers: { "Content-Type": "application/json" } };
    return signedEvent(payload, signing === "wrong" ? "whsec_wrong" : WEBHOOK_SECRET);
  });
}

/** A webhook request signed as Stripe signs it (HMAC-SHA256 of `{timestamp}.{payload}`). */
function signedEvent(payload: string, secret = WEBHOOK_SECRET): Sent {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex")}`;
  return { method: "POST", path: "/api/webhooks/stripe", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": signature } };
}

// ---------------------------------------------------------------------------------------------------------------
// Running it

/** One checksum per table in one round trip: what a refused request must leave as it was (test/support/checksums.ts). */
const tableChecksumsOf = (app: TestServer) =>
  // A mail's row changes by itself once sent (server/mail/service.ts): what a request wrote is the mail, not its
  // delivery; chat digests are written by the sweeper on its own schedule (ADR 029), never by a request.
  tableChecksums(app.database.db, {
    mail_outbox: "(case when t.kind = 'chat_digest' then null else (t.id, t.kind, t.to_address, t.user_id, t.topic, t.created_at)::text end)",
  });

const without = (checksums: Record<string, string>, tables: string[] = []) => Object.fromEntries(Object.entries(checksums).filter(([name]) => !tables.includes(name)));

let ctx: Context;
const checksumsOf = new Map<TestServer, () => Promise<Record<string, string>>>();

beforeAll(async () => {
  // Discord is on, pointed at a port nobody listens on: the OAuth rows store flows without ever reaching it.
  const app = await startTestServer({
    seed: false,
    env: { DISCORD_CLIENT_ID: "100000000000000001", DISCORD_CLIENT_SECRET: "fuzz-secret", DISCORD_URL: "http://127.0.0.1:9", DISCORD_TIMEOUT_MS: "200" },
  });
  const stripeApp = await startTestServer({ seed: false, env: { STRIPE_SECRET_KEY: "sk_test_fuzz", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: "http://127.0.0.1:9" } });
  const [browser, other, blockTarget, logoutBrowser] = await Promise.all([
    createBrowserMember(app, "ファズ"),
    createMember(app, "相手"),
    createMember(app, "ブロック対象"),
    createBrowserMember(app, "ログアウト役"),
  ]);
  const [logoutSession, refreshSession] = await Promise.all([signUp(app), signUp(app)]);
  const room = await browser.api("/api/chat/rooms", { json: { participantIds: [other.id], type: "DIRECT", name: null } });
  const inquiryPage = await (await app.request("/inquiry")).text();
  const honeypotValidFrom = /name="from__confirm"[^>]*value="([^"]+)"/.exec(inquiryPage)?.[1];
  if (!honeypotValidFrom) throw new Error("the inquiry form has no honeypot timestamp");
  // Something to book: a game, a listing of the other member's, the member's own listing and a booking, with coins.
  const db = app.database.db;
  await db.insertInto("games").values({ slug: "apex-legends", name: "Apex Legends", name_kana: "エーペックスレジェンズ" }).onConflict((oc) => oc.doNothing()).execute();
  await db.transaction().execute((trx) => creditPurchase(trx, { userId: browser.id, coins: 100_000, reference: "fuzz" }));
  const { id: apexId } = await db.selectFrom("games").select("id").where("slug", "=", "apex-legends").executeTakeFirstOrThrow();
  await db.insertInto("communities").values({ id: FUZZ_COMMUNITY_ID, slug: "fuzz-community", name: "ファズ部", game_id: apexId, members_count: 1 }).execute();
  await db.insertInto("community_members").values({ community_id: FUZZ_COMMUNITY_ID, user_id: browser.id }).execute();
  const listingOf = async (member: { api: typeof browser.api }) =>
    ((await (await member.api("/api/listings", { json: validListing })).json()) as { data: { listing: { id: string } } }).data.listing.id;
  const [listingId, ownListingId] = await Promise.all([listingOf(other), listingOf(browser)]);
  const booked = await browser.api(`/api/listings/${listingId}/purchase`, {
    json: { units: 1, desiredStartTime: Date.now() + 86_400_000 },
    headers: { "Idempotency-Key": randomUUID() },
  });
  const bookingId = ((await booked.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
  const played = await browser.api(`/api/listings/${listingId}/purchase`, { json: { units: 1, desiredStartTime: Date.now() + 60_000 }, headers: { "Idempotency-Key": randomUUID() } });
  const completedBookingId = ((await played.json()) as { data: { ticket: { id: string } } }).data.ticket.id;
  for (const [member, action] of [[other, "accept"], [other, "start"], [browser, "complete"]] as const) {
    const response = await member.api(`/api/tickets/${completedBookingId}/${action}`, { json: {} });
    if (!response.ok) throw new Error(`${action}: ${response.status}`);
  }
  const { email } = await app.database.db.selectFrom("auth_users").select("email").where("id", "=", browser.id).executeTakeFirstOrThrow();
  // The other member offers a plan, so subscribing (with the member's coins) can succeed.
  await other.api("/api/store/subscription-plan", { method: "PUT", json: { monthlyPrice: 100 } });
  const posted = await other.api("/api/posts/create", { json: { content: "ファズの相手の投稿", imageUrl: null, isPublic: true } });
  const postId = ((await posted.json()) as { post: { id: string } }).post.id;
  ctx = {
    app,
    stripeApp,
    bearer: browser.token,
    cookie: browser.jar.header(),
    memberId: browser.id,
    otherId: other.id,
    roomId: ((await room.json()) as { data: { chatRoom: { id: string } } }).data.chatRoom.id,
    blockTargetId: blockTarget.id,
    listingId,
    ownListingId,
    bookingId,
    completedBookingId,
    postId,
    logoutCookie: logoutBrowser.jar.header(),
    logoutBearer: logoutSession.session.access_token,
    refreshToken: refreshSession.session.refresh_token,
    email,
    honeypotValidFrom,
  };
  checksumsOf.set(app, await tableChecksumsOf(app));
  checksumsOf.set(stripeApp, await tableChecksumsOf(stripeApp));
});

afterAll(async () => {
  await Promise.all([ctx?.app.close(), ctx?.stripeApp.close()]);
});

// Events (issue 16): an event with two seats that the member may join and leave.
let fuzzEventId = "";
beforeAll(async () => {
  const db = ctx.app.database.db;
  const game = await db.selectFrom("games").select("id").where("slug", "=", "apex-legends").executeTakeFirstOrThrow();
  const startsAt = new Date(Date.now() + 7 * 24 * 3600_000);
  const event = await db
    .insertInto("events")
    .values({ game_id: game.id, title: "ファズの会", starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 3600_000), capacity: 2 })
    .returning("id")
    .executeTakeFirstOrThrow();
  fuzzEventId = event.id;
});

function credentials(row: Row, signedIn: boolean): Record<string, string> {
  if (!signedIn) return {};
  if (row.as === "bearer") return { Authorization: `Bearer ${row.route === "auth:POST /logout" ? ctx.logoutBearer : ctx.bearer}` };
  return { Cookie: row.route === "routes/logout" ? ctx.logoutCookie : ctx.cookie };
}

/** Whether a request goes anonymous: one in four. */
const signedInMostly = fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

const label = (row: Row) => `${row.method} ${row.route}${row.server ? ` (${row.server})` : ""}`;

describe("input fuzzing: no input makes the server fail, and a refusal changes nothing", () => {
  it.each(rows.map((row) => [label(row), row] as const))("%s", async (_, row) => {
    const app = row.server === "stripe" ? ctx.stripeApp : ctx.app;
    const checksums = checksumsOf.get(app)!;
    await fc.assert(
      fc.asyncProperty(row.request(ctx), signedInMostly, async (sent, anonymous) => {
        const before = await checksums();
        const response = await app.request(sent.path, {
          method: sent.method,
          body: sent.body,
          headers: { ...credentials(row, !anonymous), ...sent.headers },
        });
        const status = response.status;
        const body = await response.text();
        expect(status, `${sent.method} ${sent.path} → ${status} ${body.slice(0, 300)}`).toBeLessThan(500);
        if (status >= 400) expect(without(await checksums(), row.refusalWrites), `${sent.method} ${sent.path} → ${status} changed rows`).toEqual(without(before, row.refusalWrites));
      }),
      { numRuns: RUNS, endOnFailure: true, examples: (row.examples?.(ctx) ?? []).map((sent) => [sent, false] as [Sent, boolean]) },
    );
    const health = await app.request("/healthz");
    expect(health.status).toBe(200);
  });

  it("a NUL in stored text is a 400 with the Japanese field error, on the API and on the form, and nothing is written", async () => {
    const checksums = checksumsOf.get(ctx.app)!;
    const before = await checksums();
    const api = (pathname: string, body: unknown) =>
      ctx.app.request(pathname, { method: "POST", body: JSON.stringify(body), headers: { Authorization: `Bearer ${ctx.bearer}`, "Content-Type": "application/json" } });
    const cases = [
      [await api("/api/chat/messages", { roomId: ctx.roomId, content: "a\u0000b" }), "content"],
      [await api("/api/user/profile", { displayName: "そ\u0000ら" }), "displayName"],
      [await api("/api/user/profile", { displayName: "そら", bio: "\ud800" }), "bio"],
      [await api("/api/chat/rooms", { participantIds: [ctx.otherId], type: "GROUP", name: "部\u0000屋" }), "name"],
    ] as const;
    for (const [response, name] of cases) {
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors[name]).toEqual(["使用できない文字が含まれています"]);
    }
    const form = await ctx.app.request("/mypage/gamer-edit", {
      method: "POST",
      body: new URLSearchParams({ displayName: "ハル\u0000" }),
      headers: { Cookie: ctx.cookie, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain("使用できない文字が含まれています");
    expect(await checksums()).toEqual(before);
  });
});

describe("long URLs", () => {
  it("a signed-out visit to a page with a very long query goes to the login page with a Location clients can read", async () => {
    const long = `/tickets/${ctx.listingId}/confirm?units=1&desiredStartTime=2030-01-01T21:00&note=${"あ".repeat(500)}&pad=${"x".repeat(4000)}`;
    const response = await ctx.app.request(long, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: `/tickets/${ctx.listingId}/confirm` })}`);
  });

  it("the booking confirmation keeps only the form's fields when it adds its key", async () => {
    const response = await ctx.app.request(`/tickets/${ctx.listingId}/confirm?units=1&desiredStartTime=2030-01-01T21:00&junk=${"x".repeat(5000)}`, {
      redirect: "manual",
      headers: { Cookie: ctx.cookie },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/tickets/${ctx.listingId}/confirm\\?units=1&desiredStartTime=2030-01-01T21%3A00&key=[0-9a-f-]{36}$`));
  });
});

describe("input fuzzing covers every route", () => {
  it("has a row for every /api route and method, every route module with an action, and every /auth/v1 endpoint", async () => {
    const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
    const covered = new Set(rows.map((row) => `${row.method} ${row.route}`));
    const missing: string[] = [];
    for (const [id, route] of Object.entries(build.routes)) {
      const module = route.module as { action?: unknown; loader?: unknown };
      const api = id.startsWith("routes/api.");
      if (module.action && !rows.some((row) => row.route === id && row.method !== "GET")) missing.push(`${id}: its action`);
      if (api && module.loader && !covered.has(`GET ${id}`)) missing.push(`${id}: GET`);
    }
    // The local auth server's endpoints are the `case "METHOD /path"` of its router.
    const source = fs.readFileSync(path.resolve("server/auth/local-auth.ts"), "utf8");
    const endpoints = [...source.matchAll(/case "([A-Z]+) (\/[^"]*)"/g)].map(([, method, pathname]) => `${method} auth:${method} ${pathname}`);
    expect(endpoints.length).toBeGreaterThan(0);
    for (const endpoint of endpoints) if (!covered.has(endpoint)) missing.push(endpoint);
    expect(missing, "add a row to the table in test/integration/input-fuzz.test.ts").toEqual([]);
  });
});
