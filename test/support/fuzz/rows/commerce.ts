import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { formBody, get, headerValue, json, jsonBody, jsonExample, listingFields, nastyString, NUL, payoutFields, post, purchaseFields, queryString, type Row, segment, signedEvent, stringFields, stripeEvent, text, validListing, validPayout } from "../generators";

/** Commerce: coins, listings, bookings, reviews, payouts, subscriptions and their plans, the Stripe webhook
 * (without Stripe a 404; with it, bodies sent unsigned, wrongly signed and signed), and their pages' forms. */
export const commerceRows: Row[] = [
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
  // extend reads {units}; the other actions read no body, and are sent one anyway.
  ...[
    { part: "extend", actions: ["extend"] },
    { part: "without a body", actions: ["accept", "cancel", "start", "check-in", "complete", "refund"] },
  ].map(({ part, actions }): Row => ({
    route: "routes/api.tickets.$id.$action",
    part,
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      fc
        .tuple(segment(ctx.bookingId), fc.constantFrom(...actions), fc.option(headerValue(randomUUID())), jsonBody({ units: fc.constantFrom(1, "2") }))
        .map(([id, action, key, sent]) => ({ method: "POST", path: `/api/tickets/${id}/${action}`, body: sent.body, headers: { ...sent.headers, ...(key === null ? {} : { "Idempotency-Key": key }) } })),
  })),
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
];
