import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { PASSWORD, uniqueEmail } from "../../auth";
import { bodyless, formBody, formExample, get, honeypot, json, jsonBody, jsonExample, nastyString, nastyValue, NUL, post, queryString, type Row, segment, text, uuidLike } from "../generators";

/** Accounts: the /api/auth routes, sign-up, sign-in, passwords and email, leaving, privacy, sign-out, the inquiry
 * form, unknown pages, and every endpoint of the local auth server (the route table in server/auth/api.ts), Discord's
 * OAuth flow included (against a Discord that is never reached: an unknown state never gets that far, and /authorize
 * only stores a flow and names Discord's URL), and its TOTP factors. */
export const accountsRows: Row[] = [
  { route: "routes/api.auth.me", method: "GET", as: "bearer", request: () => get("/api/auth/me", queryString({ x: nastyString })) },
  { route: "routes/api.auth.token", method: "GET", as: "bearer", request: () => get("/api/auth/token", queryString({ x: nastyString })) },
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
  // An account's life beyond sign-in. The fuzz member's own password is never the one sent as current.
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
  // 二段階認証's pages (ADR 064). The member has no authenticator app: enrolling may succeed (an unverified factor, up
  // to the limit); confirming, removing and renewing name factors that are not theirs, so each is refused.
  {
    route: "routes/_settings.settings.security",
    method: "POST",
    as: "cookie",
    request: () =>
      post(
        "/settings/security",
        formBody({
          intent: fc.oneof(fc.constantFrom("enroll", "confirm", "remove", "renewCodes"), nastyString),
          friendlyName: fc.oneof(fc.constant(""), nastyString),
          factorId: fc.oneof(uuidLike, nastyString),
          code: fc.oneof(text("123456"), fc.constantFrom("１２３４５６", "12 34 56", "")),
          secret: fc.oneof(fc.constant("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"), nastyString),
        }),
      ),
    examples: () => [
      formExample("/settings/security", { intent: "enroll", friendlyName: `a${NUL}` }),
      formExample("/settings/security", { intent: "confirm", factorId: randomUUID(), code: "123456", secret: `A${NUL}` }),
      formExample("/settings/security", { intent: "remove", factorId: `${randomUUID()}${NUL}`, code: "123456" }),
    ],
  },
  // The code page of a sign-in that owes its second step; the member's session owes none, so it is sent on.
  {
    route: "routes/_default.login_.mfa",
    method: "POST",
    as: "cookie",
    refusalWrites: ["rate_limit_events"],
    request: () =>
      post(
        "/login/mfa",
        formBody({ intent: fc.oneof(fc.constantFrom("code", "recovery"), nastyString), code: text("123456"), recoveryCode: text("abcde-23456"), factorId: fc.oneof(uuidLike, nastyString), redirectTo: text("/mypage") }),
      ),
    examples: () => [formExample("/login/mfa", { intent: "recovery", recoveryCode: `abcde${NUL}` })],
  },
  { route: "routes/_default.login_.mfa", method: "GET", as: "cookie", request: () => get("/login/mfa", queryString({ redirectTo: text("/chat/あ?x=1#y") })) },
  // Signed in, /login and /signup send the visitor on to redirectTo: it must become a valid Location header.
  { route: "routes/_default.login", method: "GET", as: "cookie", request: () => get("/login", queryString({ redirectTo: text("/chat/あ?x=1#y") })) },
  { route: "routes/_default.signup", method: "GET", as: "cookie", request: () => get("/signup", queryString({ redirectTo: text("/mypage") })) },
  { route: "routes/auth.callback", method: "GET", as: "cookie", request: () => get("/auth/callback", queryString({ code: text("0b8a2f9c-code") })) },
  { route: "routes/_settings.settings._index", method: "POST", as: "cookie", request: () => post("/settings?index", formBody({ intent: fc.oneof(fc.constantFrom("link-discord", "unlink-discord"), nastyString) })) },
  // Leaving (退会): only wrong passwords, so the member stays; a wrong one is a counted sign-in failure.
  {
    route: "routes/_settings.settings.account",
    method: "POST",
    as: "cookie",
    refusalWrites: ["rate_limit_events"],
    request: () => post("/settings/account", formBody({ password: fc.constantFrom("wrong-password", ""), confirm: fc.constantFrom("on", "off", "") })),
  },
  { route: "routes/_settings.settings.account", method: "GET", as: "cookie", request: () => get("/settings/account", queryString({ x: nastyString })) },
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
  // 「ログイン中の端末」: as a member of its own (ctx.sessionsCookie), whose other sessions 「この端末以外からログアウト」
  // may end; a session id is someone else's, unknown or not one, so only refusals and that sign-out happen.
  {
    route: "routes/settings.security.sessions",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      post(
        "/settings/security/sessions",
        formBody({ intent: fc.oneof(fc.constantFrom("sign-out-session", "sign-out-others"), nastyString), sessionId: fc.oneof(fc.constant(ctx.otherSessionId), uuidLike, nastyString) }),
      ),
    examples: (ctx) => [
      formExample("/settings/security/sessions", { intent: "sign-out-session", sessionId: `${ctx.otherSessionId}${NUL}` }),
      formExample("/settings/security/sessions", { intent: `sign-out-others${NUL}` }),
      formExample("/settings/security/sessions", { intent: "sign-out-session", sessionId: "not-a-uuid" }),
    ],
  },
  { route: "routes/logout", method: "POST", as: "cookie", request: () => post("/logout", formBody({ scope: fc.constantFrom("local", "global", "others") })) },
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
  // Discordでログイン: the OAuth flow's endpoints, against a Discord that is never reached (an unknown
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
  // TOTP factors (ADR 063): enrolling (which may succeed, up to the factor limit), and a challenge, a verify and an
  // unenrolment of factors that are not the member's (404), whatever the path and the body.
  {
    route: "auth:POST /factors",
    method: "POST",
    as: "bearer",
    request: () =>
      post(
        "/auth/v1/factors",
        jsonBody({ factor_type: fc.constantFrom("totp", "phone", "webauthn", ""), friendly_name: fc.oneof(fc.constant(""), nastyString), issuer: fc.oneof(fc.constant(""), nastyString) }),
      ),
    examples: () => [
      jsonExample("/auth/v1/factors", { factor_type: "totp", friendly_name: `a${NUL}` }),
      jsonExample("/auth/v1/factors", { factor_type: "totp", issuer: `a${NUL}` }),
      jsonExample("/auth/v1/factors", { factor_type: "totp", friendly_name: "x".repeat(10_000) }),
      jsonExample("/auth/v1/factors", null),
    ],
  },
  {
    route: "auth:POST /factors/{factor_id}/challenge",
    method: "POST",
    as: "bearer",
    refusalWrites: ["rate_limit_events"],
    request: () => bodyless("POST", fc.oneof(uuidLike.map(encodeURIComponent), segment(randomUUID())).map((id) => `/auth/v1/factors/${id}/challenge`)),
  },
  {
    route: "auth:POST /factors/{factor_id}/verify",
    method: "POST",
    as: "bearer",
    refusalWrites: ["rate_limit_events"],
    request: () =>
      fc
        .tuple(fc.oneof(uuidLike.map(encodeURIComponent), segment(randomUUID())), jsonBody({ challenge_id: fc.oneof(uuidLike, nastyString), code: text("123456") }))
        .map(([id, sent]) => ({ method: "POST", path: `/auth/v1/factors/${id}/verify`, ...sent })),
  },
  {
    route: "auth:DELETE /factors/{factor_id}",
    method: "DELETE",
    as: "bearer",
    request: () => bodyless("DELETE", fc.oneof(uuidLike.map(encodeURIComponent), segment(randomUUID())).map((id) => `/auth/v1/factors/${id}`)),
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
