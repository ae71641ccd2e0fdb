import { createECDH, createHmac, randomBytes, randomUUID } from "node:crypto";
import fc from "fast-check";
import sharp from "sharp";
import type { TestServer } from "../server";
import { MAIL_KINDS } from "../../../app/lib/constants/mail";
import { unsubscribeUrl } from "../../../app/lib/unsubscribe.server";

/**
 * The fuzz table's generated values (ADR 014): nasty characters and strings, JSON and form bodies, query strings and
 * path segments built around a route's valid fields, and the table's row type. The rows are in ./rows/, the rules
 * they are run under in ./rules.ts, the world they run against in ./world.ts.
 */

export const WEBHOOK_SECRET = "whsec_fuzz_local_secret";

// ---------------------------------------------------------------------------------------------------------------
// Generated values

/** Characters that have broken text handling somewhere: controls, NUL, DEL, C1, separators, surrogate halves, emoji. */
/** What PostgreSQL text and jsonb cannot hold at all. */
export const unstorable = fc.constantFrom("\u0000", "\ud800", "\udfff");
export const nastyChar = fc.oneof({ weight: 1, arbitrary: unstorable }, { weight: 3, arbitrary: fc.constantFrom(
  "\u0001", "\u0007", "\b", "\t", "\n", "\u000b", "\f", "\r", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f",
  "\u00a0", "\u200b", "\u202e", "\u2028", "\ufeff", "\ufffd", "\uffff", "\ud800", "\udbff", "\udc00", "\udfff",
  "😀", "👨‍👩‍👧", "𠮷", "e\u0301", "\u304b\u3099", "ｱ", "%00", "\\u0000", "'", '"', "<", "&", ";", "=", "+", "#", "?", "/",
) });
export const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
export const anyChar = fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), codeUnit, nastyChar);

export const nastyString: fc.Arbitrary<string> = fc.oneof(
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

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 63, 1e300, Number.MAX_SAFE_INTEGER + 2)) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
);

/** A field: usually a value that passes, often a nasty one, sometimes absent. */
export const field = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 3, arbitrary: nastyValue }, { weight: 1, arbitrary: fc.constant(undefined) });

/** Valid text with something nasty inside it, or not. */
export const text = (valid: string) =>
  fc.oneof(fc.constant(valid), fc.tuple(nastyChar, fc.nat(valid.length)).map(([char, at]) => valid.slice(0, at) + char + valid.slice(at)));

export type Fields = Record<string, fc.Arbitrary<unknown>>;

export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | FormData;
}

export const json = (body: string, contentType = "application/json") => ({ body, headers: { "Content-Type": contentType } });

/** Every field valid but one, which gets a nasty character inside (a string) or a nasty value (anything else). */
export function validButOne<T>(fields: Record<string, fc.Arbitrary<T>>) {
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
export function jsonBody(fields: Fields) {
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

export const formString = (valid: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 3, arbitrary: nastyString }, { weight: 1, arbitrary: fc.constant(undefined) });

/** A form body: the route's fields (maybe nasty, repeated or missing), unknown fields, or a malformed body. */
export function formBody(fields: Record<string, fc.Arbitrary<string>>) {
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
export function queryString(params: Record<string, fc.Arbitrary<string>>) {
  const pairs = fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(params).map(([name, valid]) => [name, formString(valid)]))),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(params)), nastyString), nastyString), { maxLength: 2 }),
    )
    .map(([known, extra]) => `?${new URLSearchParams([...Object.entries(known).filter((pair): pair is [string, string] => pair[1] !== undefined), ...extra])}`);
  return fc.oneof({ weight: 5, arbitrary: pairs }, { weight: 1, arbitrary: fc.constantFrom("?%", "?limit=%zz", "?offset=%00", "?before=%ED%A0%80", "?page=1e999", "?&&==") });
}

/** A path segment that may be anything, percent-encoded as a client would (a lone surrogate as its raw UTF-8). */
export const segment = (valid: string) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(valid) }, { weight: 1, arbitrary: nastyString.filter((value) => value.length < 500) }).map((value) =>
    isWellFormed(value) ? encodeURIComponent(value) : `${encodeURIComponent(value.replace(LONE_SURROGATES, ""))}%ED%A0%80`,
  );
export const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
export const isWellFormed = (value: string) => !new RegExp(LONE_SURROGATES.source).test(value);

/** A header value a client can send: visible Latin-1 (no NUL or line breaks; fetch refuses them itself). */
export const headerValue = (valid: string) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(valid) },
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 300 }) },
  );

// ---------------------------------------------------------------------------------------------------------------
// The table

export interface Context {
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
  /** The cookies of a member of the session list's own (「この端末以外からログアウト」 ends only its sessions), and a live session of another member's. */
  sessionsCookie: string;
  otherSessionId: string;
  email: string;
  /** An event with two seats the member may join and leave. */
  eventId: string;
  /** The inquiry form's spam-trap timestamp, as the page renders it, so generated inquiries get past the trap. */
  honeypotValidFrom: string;
  /**
   * The operators' desk (ADR 071): the cookies of an admin signed in with the second step, and a member of the desk
   * rows' own with a post someone reported, whom those rows may hide, suspend or ban without touching the others.
   */
  deskCookie: string;
  deskPersonId: string;
  deskPostId: string;
  /** A payout requested by the other member and an inquiry, for the desk's payouts and inquiries rows (ADR 072). */
  deskPayoutId: string;
  deskInquiryId: number;
}

export const honeypot = (ctx: Context) => ({ name__confirm: fc.constant(""), from__confirm: fc.constant(ctx.honeypotValidFrom) });

export interface Row {
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
  /** Which of a route's rows this is, when it has more than one (its label: a failure names it, a rule may be lenient to it). */
  part?: string;
}

export const NUL = "\u0000";
export const jsonExample = (path: string, body: unknown, method = "POST"): Sent => ({ method, path, body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
export const formExample = (path: string, fields: Record<string, string>): Sent => ({
  method: "POST",
  path,
  body: new URLSearchParams(fields),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

/** A browser's push subscription (keys that pass), at an http:// endpoint this server refuses. */
export const FUZZ_PUSH = (() => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { endpoint: "http://127.0.0.1:9/push/fuzz", expirationTime: null, keys: { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") } };
})();

/** The community the fuzzed member belongs to (made in beforeAll), so a post may be tagged with it. */
export const FUZZ_COMMUNITY_ID = randomUUID();
export const uuidLike = fc.constantFrom(randomUUID(), "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11");

export const post = (path: string, body: fc.Arbitrary<{ body: Sent["body"]; headers: Record<string, string> }>, method = "POST") =>
  body.map(({ body, headers }) => ({ method, path, body, headers }));
export const get = (path: string, query: fc.Arbitrary<string> = fc.constant("")) => query.map((search) => ({ method: "GET", path: path + search }));
export const bodyless = (method: string, path: fc.Arbitrary<string>) => path.map((pathname) => ({ method, path: pathname }));

export const validListing = { title: "ランク上げ", gameSlug: "apex-legends", description: "説明\nです", pricePerUnit: 500, minutesPerUnit: 60, maxUnits: 2 };
export const listingFields = {
  title: text(validListing.title),
  gameSlug: text(validListing.gameSlug),
  description: text(validListing.description),
  pricePerUnit: fc.constantFrom(100, 500, "1000", 50000),
  minutesPerUnit: fc.constantFrom(15, "60", 120),
  maxUnits: fc.constantFrom(1, "8"),
};
export const validPayout = { coins: 1_000, bankName: "ゲーマー銀行", branchName: "渋谷支店", accountType: "ordinary", accountNumber: "1234567", accountHolder: "ゲーマー タロウ" };
export const payoutFields = {
  coins: fc.constantFrom(999, 1_000, "1,000", "５０００", 2 ** 31),
  bankName: text(validPayout.bankName),
  branchName: text(validPayout.branchName),
  accountType: fc.constantFrom("ordinary", "checking", "savings"),
  accountNumber: fc.constantFrom("1234567", "１２３４５６７", "123456"),
  accountHolder: text(validPayout.accountHolder),
};
/** A start time tomorrow, as seconds, milliseconds, an ISO string and a form's `datetime-local`. */
export function purchaseFields() {
  const tomorrow = Date.now() + 86_400_000;
  const local = new Date(tomorrow + 9 * 3600_000).toISOString().slice(0, 16);
  return {
    units: fc.constantFrom(1, "2"),
    desiredStartTime: fc.constantFrom(Math.floor(tomorrow / 1000), tomorrow, new Date(tomorrow).toISOString(), local),
    note: text("よろしくお願いします"),
  };
}
/** A report of something the fuzzed member may see (the other member, their post or listing), or not. */
export const reportFields = (ctx: Context) => ({
  targetType: fc.constantFrom("user", "post", "chat_message", "listing", "review", "comment"),
  targetId: fc.constantFrom(ctx.otherId, ctx.postId, ctx.listingId, ctx.memberId, "1", "0", "-1", "abc"),
  reason: fc.constantFrom("spam", "harassment", "inappropriate", "off_platform_payment", "impersonation", "other", "bad"),
  note: text("外部の振込に誘われました"),
});
/** An unsubscribe link's query: signed right for one of the member's kinds, or with nasty parts. */
export const unsubscribeQuery = (ctx: Context) =>
  fc.oneof(
    fc.constantFrom(...MAIL_KINDS).map((kind) => new URL(unsubscribeUrl({ siteUrl: ctx.app.url, secret: ctx.app.config.SESSION_SECRET, userId: ctx.memberId, kind })).search),
    queryString({ u: fc.constantFrom(ctx.memberId, ctx.otherId), k: fc.constantFrom(...MAIL_KINDS, "newsletter"), s: nastyString }),
  );
/** A multipart form with text fields and a file (named `fileField`) that may be an image, not one, or half of one. */
export const TINY_PNG = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#3a6" } }).png().toBuffer();
export function fileForm(fileField: string, fields: Record<string, fc.Arbitrary<string>>) {
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

export const stringFields = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  Object.fromEntries(Object.entries(fields).map(([name, arbitrary]) => [name, arbitrary.map(String)]));

/** A Stripe event as the webhook receives it: signed right, signed wrong, or not signed, with a nasty body. */
export function stripeEvent(): fc.Arbitrary<Sent> {
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
export function signedEvent(payload: string, secret = WEBHOOK_SECRET): Sent {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex")}`;
  return { method: "POST", path: "/api/webhooks/stripe", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": signature } };
}

