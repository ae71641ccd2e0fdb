import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { MAIL_KINDS } from "../../../../app/lib/constants/mail";
import { PUSH_KINDS } from "../../../../app/lib/constants/push";
import { bodyless, fileForm, formBody, formExample, FUZZ_COMMUNITY_ID, FUZZ_PUSH, get, jsonBody, jsonExample, nastyString, NUL, post, queryString, reportFields, type Row, segment, stringFields, text, unsubscribeQuery } from "../generators";

/** Social: posts, profiles, uploads, blocks, notifications and their mails, Web Push devices, reports, communities,
 * events and explore, through the API and the pages' forms. */
export const socialRows: Row[] = [
  {
    route: "routes/api.posts.create",
    method: "POST",
    as: "bearer",
    request: () =>
      post("/api/posts/create", jsonBody({ content: text("今日もランクマ\n頑張る"), imageUrl: fc.constantFrom(null, "https://example.jp/a.png", "/uploads/post/x.png", `/media/${randomUUID()}`, "/media/not-an-id"), isPublic: fc.constantFrom(true, false, "true"), communityId: fc.constantFrom(null, "", FUZZ_COMMUNITY_ID, randomUUID()) })),
    examples: () => [jsonExample("/api/posts/create", { content: `投${NUL}稿`, imageUrl: null, isPublic: true }), jsonExample("/api/posts/create", { content: null, imageUrl: `/uploads/${NUL}`, isPublic: true })],
  },
  {
    route: "routes/api.posts",
    method: "GET",
    as: "bearer",
    request: (ctx) =>
      get("/api/posts", queryString({ cursor: fc.constantFrom(`1732350000123_${ctx.postId}`, "99999999999999_7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11"), authorId: fc.constant(ctx.otherId), withImage: fc.constantFrom("1", "false"), limit: fc.constantFrom("1", "50") })),
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
  { route: "routes/api.uploads", method: "POST", as: "bearer", refusalWrites: ["rate_limit_windows"], request: () => post("/api/uploads", fileForm("file", { type: fc.constantFrom("post", "avatar", "chat"), subscribersOnly: fc.constantFrom("true", "false", "on") })) },
  { route: "routes/api.users.$id.block", method: "POST", as: "bearer", request: (ctx) => segment(ctx.blockTargetId).chain((id) => post(`/api/users/${id}/block`, jsonBody({}))) },
  { route: "routes/api.users.$id.block", method: "DELETE", as: "bearer", request: (ctx) => segment(ctx.blockTargetId).chain((id) => post(`/api/users/${id}/block`, jsonBody({}), "DELETE")) },
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
  { route: "routes/_default.notifications", method: "POST", as: "cookie", request: () => fc.tuple(queryString({ page: fc.constantFrom("0", "2") }), formBody({})).chain(([search, form]) => post(`/notifications${search}`, fc.constant(form))) },
  { route: "routes/_default.notifications", method: "GET", as: "cookie", request: () => get("/notifications", queryString({ page: fc.constantFrom("0", "1") })) },
  { route: "routes/_settings.settings.coin-history", method: "GET", as: "cookie", request: () => get("/settings/coin-history", queryString({ page: fc.constantFrom("0", "1") })) },
  // Notification mails: the settings form's boxes, and the signed unsubscribe link (a right one for each kind,
  // or a nasty signature) opened and POSTed as RFC 8058's one-click, signed in or not.
  { route: "routes/_settings.settings.notifications", method: "POST", as: "cookie", request: () => post("/settings/notifications", formBody({ kinds: fc.constantFrom(...MAIL_KINDS, "newsletter") })) },
  {
    route: "routes/_settings.settings.notifications",
    method: "POST",
    as: "cookie",
    request: () =>
      post("/settings/notifications", formBody({ intent: fc.constantFrom("push-kinds", "remove-device"), pushKinds: fc.constantFrom(...PUSH_KINDS, "sms"), deviceId: fc.constantFrom("1", "0", "abc") })),
  },
  // Web Push: a browser's subscription, its keys and endpoint bent every way. Its endpoint is http:// (this
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
  // Reports (通報): each target type with a right id, another's, a malformed or huge one; each reason and
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
  // Communities: joining and leaving as a plain form, its page's cursor, the new post page's preselection.
  { route: "routes/_default.community.$slug", method: "POST", as: "cookie", request: () => segment("fuzz-community").chain((slug) => post(`/community/${slug}`, formBody({ intent: fc.constantFrom("join", "leave") }))) },
  { route: "routes/_default.community.$slug", method: "GET", as: "cookie", request: (ctx) => get("/community/fuzz-community", queryString({ cursor: fc.constant(`1732350000123_${ctx.postId}`) })) },
  { route: "routes/_default.posts.new", method: "GET", as: "cookie", request: () => get("/posts/new", queryString({ community: text("fuzz-community") })) },
  // Events: the join/leave form of an event made below, and the list's game filter and paging.
  { route: "routes/_default.events.$id", method: "POST", as: "cookie", request: (ctx) => segment(ctx.eventId).chain((id) => post(`/events/${id}`, formBody({ intent: fc.constantFrom("join", "leave") }))) },
  { route: "routes/_default.events._index", method: "GET", as: "cookie", request: () => get("/events", queryString({ game: fc.constantFrom("apex-legends", ""), page: fc.constantFrom("0", "1"), pastPage: fc.constantFrom("0", "2") })) },
  // Explore: every filter of the query string, valid and not (a keyword with NUL, a lone surrogate, LIKE's own characters).
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
];
