// @ts-check
// A stand-in for Discord in tests: the OAuth 2.0 authorization server (consent page, token endpoint with
// PKCE) and the three things the app reads — GET /api/users/@me, GET /api/users/@me/guilds and the CDN's avatars and
// server icons — on one loopback origin, which the app is given as both DISCORD_URL and DISCORD_CDN_URL. It is strict
// where Discord is (exact redirect_uri, S256 PKCE, one-time codes), so a test fails where production would. A test
// steers it through the returned object: who signs in (`user`, `guilds`, or the consent page's fields in a browser),
// which endpoint fails (`fail`), and what the app sent (`requests`). Run by e2e-discord.mjs for the browser flows.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import sharp from "sharp";

/**
 * @typedef {{ id: string, username: string, global_name: string | null, avatar: string | null, email: string | null, verified: boolean }} StandInUser
 * @typedef {{ id: string, name: string, icon: string | null }} StandInGuild
 * @typedef {number | "hang"} Failure An HTTP status to answer with a JSON error body, or "hang": never answer.
 * @typedef {{ token?: Failure, user?: Failure, guilds?: Failure, avatar?: Failure }} Failures
 * @typedef {{ method: string, path: string, query: Record<string, string>, body: Record<string, string> | null, authorization: string | null }} RecordedRequest
 * @typedef {{ clientId: string, redirectUri: string, codeChallenge: string, scope: string, user: StandInUser, guilds: StandInGuild[], expiresAt: number, used: boolean, accessToken?: string }} IssuedCode
 * @typedef {{ scope: string, user: StandInUser, guilds: StandInGuild[], expiresAt: number }} IssuedToken
 * @typedef {{
 *   url: string,
 *   user: StandInUser,
 *   guilds: StandInGuild[],
 *   fail: Failures,
 *   requests: RecordedRequest[],
 *   reset: () => void,
 *   close: () => Promise<void>,
 * }} DiscordStandIn
 */

/** @returns {StandInUser} */
const defaultUser = () => ({
  id: "800000000000000001",
  username: "kenta_gg",
  global_name: "けんた",
  avatar: "0123456789abcdef0123456789abcdef",
  email: "kenta@discord.example",
  verified: true,
});

/** @returns {StandInGuild[]} */
const defaultGuilds = () => [
  {
    id: "900000000000000001",
    name: "APEX部",
    icon: "fedcba9876543210fedcba9876543210",
  },
  { id: "900000000000000002", name: "まったり雑談", icon: null },
];

const BODY_MAX_BYTES = 64 * 1024;
/** Past this much, a too-large body is no longer drained for a polite 413: the socket is dropped. */
const BODY_DRAIN_MAX_BYTES = 1024 * 1024;
const CODE_TTL_MS = 10 * 60 * 1000;
const TOKEN_TTL_SECONDS = 604800;
const AUTHORIZE_PARAMS = ["client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method", "prompt"];
const TOKEN_PARAMS = ["client_id", "client_secret", "grant_type", "code", "redirect_uri", "code_verifier"];
/** RFC 7636: 43 to 128 unreserved characters, for the verifier and (as an S256 hash, exactly 43) the challenge. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;
const SNOWFLAKE = /^[0-9]{1,20}$/;
const IMAGE_HASH = /^(a_)?[0-9a-f]{32}$/;
/** Discord serves its API with and without a version prefix (/api/v10/…); the app uses the bare one. */
const API_PREFIX = /^\/api(?:\/v[0-9]+)?(?=\/)/;
const SCOPE_LABELS = /** @type {Record<string, string>} */ ({
  identify: "ユーザー名・アバターの参照",
  email: "メールアドレスの参照",
  guilds: "参加しているサーバーの一覧",
});
const FAILURE_BODY = JSON.stringify({ message: "stand-in failure", code: 0 });
const UNAUTHORIZED_BODY = JSON.stringify({
  message: "401: Unauthorized",
  code: 0,
});

/**
 * Starts the stand-in on `host:port` (0: any free port). `redirectUri` is the application's registered redirect, or
 * several of them (Discord keeps a list per application: the e2e suite's two servers share one stand-in).
 * @param {{ clientId: string, clientSecret: string, redirectUri: string | string[], port?: number, host?: string }} options
 * @returns {Promise<DiscordStandIn>}
 */
export async function startDiscordStandIn({ clientId, clientSecret, redirectUri, port = 0, host = "127.0.0.1" }) {
  const redirectUris = [redirectUri].flat();
  for (const [name, value] of Object.entries({ clientId, clientSecret, redirectUri: redirectUris[0] })) {
    if (typeof value !== "string" || value === "") throw new TypeError(`startDiscordStandIn: ${name} is required`);
  }
  // The consent page's CSP must let the form's redirect reach the app: Chrome applies form-action to redirects too.
  const redirectOrigin = [...new Set(redirectUris.map((uri) => new URL(uri).origin))].join(" ");

  /** @type {Map<string, IssuedCode>} */
  const codes = new Map();
  /** @type {Map<string, IssuedToken>} */
  const tokens = new Map();
  /** @type {Map<string, Promise<Buffer>>} */
  const images = new Map();
  /** Every open socket, so that close() ends keep-alive and hanging ones at once instead of waiting for them. */
  const sockets = new Set();

  /** @type {DiscordStandIn} */
  const standIn = {
    url: "",
    user: defaultUser(),
    guilds: defaultGuilds(),
    fail: {},
    requests: [],
    reset() {
      standIn.user = defaultUser();
      standIn.guilds = defaultGuilds();
      standIn.fail = {};
      // Emptied in place: a test may hold the array.
      standIn.requests.length = 0;
      codes.clear();
      tokens.clear();
    },
    close,
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      // A bug in the stand-in, not the app: say so loudly in the response rather than crash the test run.
      if (res.headersSent) return res.destroy();
      send(res, 500, "text/plain; charset=utf-8", `stand-in error: ${error instanceof Error ? error.stack : String(error)}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(undefined);
    });
  });
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  standIn.url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;

  /** @type {Promise<void> | undefined} */
  let closing;
  function close() {
    closing ??= new Promise((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    return closing;
  }

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  async function handle(req, res) {
    req.on("error", () => {});
    res.on("error", () => {});
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    const queryStart = target.indexOf("?");
    const path = queryStart === -1 ? target : target.slice(0, queryStart);
    const rawQuery = queryStart === -1 ? "" : target.slice(queryStart + 1);
    const body = method === "POST" || method === "PUT" || method === "PATCH" ? await readBody(req) : Buffer.alloc(0);
    if (body === null) return send(res, 413, "text/plain; charset=utf-8", "Payload Too Large");

    const isForm = /^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers["content-type"] ?? "");
    const query = parseOrNull(rawQuery);
    const form = isForm ? parseOrNull(body.toString("utf8")) : null;
    standIn.requests.push({
      method,
      path,
      query: query?.fields ?? Object.fromEntries(new URLSearchParams(rawQuery)),
      body: isForm ? form?.fields ?? Object.fromEntries(new URLSearchParams(body.toString("utf8"))) : null,
      authorization: req.headers.authorization ?? null,
    });
    if (!path.startsWith("/")) return notFound(res);
    const request = {
      req,
      res,
      method,
      path,
      query,
      form,
      isForm,
      badForm: isForm && form === null,
    };

    if (path === "/healthz") return only(request, ["GET", "HEAD"], () => send(res, 200, "text/plain; charset=utf-8", "ok"));
    if (path === "/oauth2/authorize" || path === "/api/oauth2/authorize") {
      if (method === "GET") return authorizePage(request);
      if (method === "POST") return authorizeDecision(request);
      return methodNotAllowed(res, ["GET", "POST"]);
    }
    const apiPath = API_PREFIX.test(path) ? path.replace(API_PREFIX, "") : null;
    if (apiPath === "/oauth2/token") return only(request, ["POST"], () => token(request));
    if (apiPath === "/users/@me") return only(request, ["GET"], () => me(request));
    if (apiPath === "/users/@me/guilds") return only(request, ["GET"], () => myGuilds(request));
    const avatar = /^\/avatars\/([^/]+)\/([^/]+)\.png$/.exec(path);
    if (avatar) return only(request, ["GET", "HEAD"], () => image(request, "avatar", avatar[1], avatar[2], 128));
    const icon = /^\/icons\/([^/]+)\/([^/]+)\.png$/.exec(path);
    if (icon) return only(request, ["GET", "HEAD"], () => image(request, "icon", icon[1], icon[2], 64));
    return notFound(res);
  }

  /**
   * @typedef {{ fields: Record<string, string>, repeated: string[] }} Parsed
   * @typedef {{ req: http.IncomingMessage, res: http.ServerResponse, method: string, path: string, query: Parsed | null, form: Parsed | null, isForm: boolean, badForm: boolean }} Request
   */

  /**
   * @param {Request} request
   * @param {string[]} methods
   * @param {() => unknown} run
   */
  function only(request, methods, run) {
    if (!methods.includes(request.method)) return methodNotAllowed(request.res, methods);
    // A query Discord would not understand (bad percent-encoding) is refused the same on every endpoint.
    if (!request.query) return badRequest(request);
    return run();
  }

  /**
   * GET /oauth2/authorize: the consent page, or a 400 page when the request is not one this client may make. Like
   * Discord, it never redirects an invalid request: its redirect_uri may be anybody's.
   * @param {Request} request
   */
  function authorizePage({ res, query }) {
    if (!query) return errorPage(res, "リクエストの形式が正しくありません（パーセントエンコーディング）。");
    const problem = authorizeProblem(query);
    if (problem) return errorPage(res, problem);
    const params = query.fields;
    const user = standIn.user;
    const hidden = AUTHORIZE_PARAMS.filter((name) => params[name] !== undefined)
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name])}">`)
      .join("\n      ");
    const scopes = params.scope
      .split(" ")
      .filter(Boolean)
      .map((scope) => `<li><code>${escapeHtml(scope)}</code>${Object.hasOwn(SCOPE_LABELS, scope) ? ` — ${SCOPE_LABELS[scope]}` : ""}</li>`)
      .join("\n      ");
    // Plain text inputs, even for the address: a test may sign in with one the app must refuse.
    const field = (/** @type {string} */ label, /** @type {string} */ name, /** @type {string | null} */ value) =>
      `<label>${label} <input type="text" name="${name}" value="${escapeHtml(value ?? "")}"></label>`;
    const guilds = standIn.guilds.map((guild) => `${guild.id}:${guild.name}`).join(", ");
    html(
      res,
      200,
      `<h1>Discord（テスト用）</h1>
    <p>アプリ <strong>${escapeHtml(params.client_id)}</strong> があなたの Discord アカウントへのアクセスを求めています。</p>
    <p>戻り先: <code>${escapeHtml(params.redirect_uri)}</code></p>
    <ul>
      ${scopes}
    </ul>
    <form method="post" action="/oauth2/authorize">
      ${hidden}
      <fieldset>
        <legend>サインインするユーザー</legend>
        ${field("ユーザーID", "user_id", user.id)}
        ${field("ユーザー名", "username", user.username)}
        ${field("表示名", "global_name", user.global_name)}
        ${field("アバター", "avatar", user.avatar)}
        ${field("メールアドレス", "email", user.email)}
        <label><input type="checkbox" name="verified" value="true"${user.verified ? " checked" : ""}> メール確認済み</label>
        ${field("サーバー", "guilds", guilds)}
        <small>サーバーは <code>ID:名前</code> を「, 」で区切って並べます。</small>
      </fieldset>
      <p>
        <button name="decision" value="allow">許可</button>
        <button name="decision" value="deny">拒否</button>
      </p>
    </form>`
    );
  }

  /**
   * POST /oauth2/authorize: the consent page's answer. Allow → a one-time code for whoever the fields name; deny →
   * access_denied. Both go back to the (again validated) redirect_uri with the state.
   * @param {Request} request
   */
  function authorizeDecision({ res, form, isForm }) {
    if (!isForm || !form) return errorPage(res, "フォームの形式が正しくありません。");
    const problem = authorizeProblem(form);
    if (problem) return errorPage(res, problem);
    const fields = form.fields;
    const location = new URL(fields.redirect_uri);
    /** @param {Record<string, string>} params */
    const redirect = (params) => {
      for (const [name, value] of Object.entries(params)) location.searchParams.set(name, value);
      if (fields.state !== undefined) location.searchParams.set("state", fields.state);
      res.writeHead(302, {
        Location: location.toString(),
        "Cache-Control": "no-store",
        "Content-Length": 0,
      });
      res.end();
    };
    if (fields.decision === "deny") {
      return redirect({
        error: "access_denied",
        error_description: "The resource owner or authorization server denied the request",
      });
    }
    if (fields.decision !== "allow") return errorPage(res, "decision は allow か deny です。");

    const userId = (fields.user_id ?? "").trim();
    const username = (fields.username ?? "").trim();
    if (!userId || !username) return errorPage(res, "ユーザーIDとユーザー名は必須です。");
    const guilds = parseGuilds(fields.guilds ?? "", standIn.guilds);
    if (!guilds) return errorPage(res, "サーバーは「ID:名前」を「, 」で区切って入力してください。");
    standIn.user = {
      id: userId,
      username,
      global_name: fields.global_name?.trim() || null,
      avatar: fields.avatar === undefined ? standIn.user.avatar : fields.avatar.trim() || null,
      email: fields.email?.trim() || null,
      verified: fields.verified === "true",
    };
    standIn.guilds = guilds;

    const code = randomToken();
    codes.set(code, {
      clientId: fields.client_id,
      redirectUri: fields.redirect_uri,
      codeChallenge: fields.code_challenge,
      scope: fields.scope,
      // Snapshots: a later change to `user` or `guilds` is the next sign-in's, not this one's.
      user: structuredClone(standIn.user),
      guilds: structuredClone(standIn.guilds),
      expiresAt: Date.now() + CODE_TTL_MS,
      used: false,
    });
    return redirect({ code });
  }

  /**
   * What is wrong with an authorization request, in Japanese for the error page, or null.
   * @param {Parsed} params
   */
  function authorizeProblem({ fields, repeated }) {
    const twice = repeated.filter((name) => AUTHORIZE_PARAMS.includes(name));
    if (twice.length > 0) return `パラメーターが重複しています: ${twice.join(", ")}`;
    if (fields.client_id !== clientId) return "client_id が登録されたアプリのものではありません。";
    if (!redirectUris.includes(fields.redirect_uri)) return "redirect_uri が登録されたものと一致しません。";
    if (fields.response_type !== "code") return "response_type は code のみ対応しています。";
    if (!fields.scope?.trim()) return "scope がありません。";
    if (!fields.code_challenge) return "code_challenge がありません（PKCE が必要です）。";
    if (fields.code_challenge_method !== "S256") return "code_challenge_method は S256 のみ対応しています。";
    if (!/^[A-Za-z0-9_-]{43}$/.test(fields.code_challenge)) return "code_challenge が S256 の値（base64url で 43 文字）ではありません。";
    return null;
  }

  /**
   * POST /api/oauth2/token: the authorization_code grant, with the client's secret in the body or as HTTP Basic.
   * @param {Request} request
   */
  function token({ req, res, form, isForm, badForm }) {
    if (failed(res, standIn.fail.token)) return;
    /** @param {number} status @param {Record<string, string>} error @param {Record<string, string>} [headers] */
    const refuse = (status, error, headers = {}) => json(res, status, error, { "Cache-Control": "no-store", ...headers });
    if (!isForm || !form || badForm)
      return refuse(400, {
        error: "invalid_request",
        error_description: "expected a form-encoded body",
      });
    const fields = form.fields;
    const twice = form.repeated.filter((name) => TOKEN_PARAMS.includes(name));
    if (twice.length > 0)
      return refuse(400, {
        error: "invalid_request",
        error_description: `repeated: ${twice.join(", ")}`,
      });

    // Client authentication (RFC 6749 §2.3): exactly one method, the body's or Basic.
    const basic = parseBasic(req.headers.authorization);
    if (basic && fields.client_secret !== undefined) {
      return refuse(400, {
        error: "invalid_request",
        error_description: "more than one client authentication method",
      });
    }
    const client = basic ?? {
      id: fields.client_id,
      secret: fields.client_secret,
    };
    const invalidClient = () => refuse(401, { error: "invalid_client" }, basic !== undefined ? { "WWW-Authenticate": 'Basic realm="discord"' } : {});
    if (basic === null || client.id !== clientId || client.secret !== clientSecret) return invalidClient();
    if (basic && fields.client_id !== undefined && fields.client_id !== clientId) return invalidClient();

    if (fields.grant_type !== "authorization_code") return refuse(400, { error: "unsupported_grant_type" });
    /** @param {string} description */
    const invalidGrant = (description) => refuse(400, { error: "invalid_grant", error_description: description });
    const issued = fields.code ? codes.get(fields.code) : undefined;
    if (!issued) return invalidGrant("unknown code");
    if (issued.used) {
      // RFC 6749 §4.1.2: a code used twice may have been stolen; what it bought is revoked.
      if (issued.accessToken) tokens.delete(issued.accessToken);
      return invalidGrant("code already used");
    }
    // Consumed now, whatever follows: a code is tried once.
    issued.used = true;
    if (issued.expiresAt <= Date.now()) return invalidGrant("code expired");
    if (issued.clientId !== client.id) return invalidGrant("code issued to another client");
    if (fields.redirect_uri !== issued.redirectUri) return invalidGrant("redirect_uri does not match the authorization request");
    if (!fields.code_verifier || !PKCE_VALUE.test(fields.code_verifier)) return invalidGrant("missing or malformed code_verifier");
    if (sha256(fields.code_verifier) !== issued.codeChallenge) return invalidGrant("code_verifier does not match code_challenge");

    const accessToken = randomToken();
    issued.accessToken = accessToken;
    tokens.set(accessToken, {
      scope: issued.scope,
      user: issued.user,
      guilds: issued.guilds,
      expiresAt: Date.now() + TOKEN_TTL_SECONDS * 1000,
    });
    json(
      res,
      200,
      {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: TOKEN_TTL_SECONDS,
        refresh_token: randomToken(),
        scope: issued.scope,
      },
      { "Cache-Control": "no-store" }
    );
  }

  /**
   * The token a bearer request carries, or null after answering 401.
   * @param {Request} request
   */
  function bearer({ req, res }) {
    const match = /^Bearer ([^\s]+)$/i.exec(req.headers.authorization ?? "");
    const issued = match ? tokens.get(match[1]) : undefined;
    if (issued && issued.expiresAt > Date.now()) return issued;
    send(res, 401, "application/json", UNAUTHORIZED_BODY);
    return null;
  }

  /** @param {Request} request */
  function me(request) {
    if (failed(request.res, standIn.fail.user)) return;
    const issued = bearer(request);
    if (!issued) return;
    const { id, username, global_name, avatar, email, verified } = issued.user;
    // As Discord: email and verified come only with the `email` scope.
    const withEmail = issued.scope.split(" ").includes("email");
    json(request.res, 200, {
      id,
      username,
      global_name,
      avatar,
      discriminator: "0",
      ...(withEmail ? { email, verified } : {}),
      locale: "ja",
      mfa_enabled: false,
    });
  }

  /** @param {Request} request */
  function myGuilds(request) {
    if (failed(request.res, standIn.fail.guilds)) return;
    const issued = bearer(request);
    if (!issued) return;
    // As Discord: the list needs the `guilds` scope.
    if (!issued.scope.split(" ").includes("guilds")) return send(request.res, 401, "application/json", UNAUTHORIZED_BODY);
    json(
      request.res,
      200,
      issued.guilds.map(({ id, name, icon }) => ({
        id,
        name,
        icon,
        owner: false,
        permissions: "0",
        features: [],
      }))
    );
  }

  /**
   * A CDN image: a solid square in a colour taken from the hash, so that two avatars differ, made once per hash.
   * @param {Request} request
   * @param {"avatar" | "icon"} kind
   * @param {string} id
   * @param {string} hash
   * @param {number} size
   */
  async function image({ res }, kind, id, hash, size) {
    if (kind === "avatar" && failed(res, standIn.fail.avatar)) return;
    if (!SNOWFLAKE.test(id) || !IMAGE_HASH.test(hash)) return notFound(res);
    const key = `${kind}:${hash}`;
    let png = images.get(key);
    if (!png) {
      const rgb = hash.replace(/^a_/, "").slice(0, 6);
      const background = {
        r: parseInt(rgb.slice(0, 2), 16),
        g: parseInt(rgb.slice(2, 4), 16),
        b: parseInt(rgb.slice(4, 6), 16),
      };
      png = sharp({
        create: { width: size, height: size, channels: 3, background },
      })
        .png()
        .toBuffer();
      images.set(key, png);
      png.catch(() => images.delete(key));
    }
    send(res, 200, "image/png", await png, {
      "Cache-Control": "public, max-age=86400",
    });
  }

  /**
   * Answers as `fail` says, when it says anything: true when the request is taken care of.
   * @param {http.ServerResponse} res
   * @param {Failure | undefined} failure
   */
  function failed(res, failure) {
    if (failure === undefined) return false;
    // Never answered: the socket stays open until the client gives up or close() destroys it.
    if (failure === "hang") return true;
    if (!Number.isInteger(failure) || failure < 200 || failure > 599) throw new TypeError(`fail: ${String(failure)} is not an HTTP status or "hang"`);
    send(res, failure, "application/json", FAILURE_BODY);
    return true;
  }

  /**
   * @param {Request} request
   */
  function badRequest({ res, path }) {
    if (API_PREFIX.test(path)) return send(res, 400, "application/json", JSON.stringify({ message: "400: Bad Request", code: 0 }));
    return send(res, 400, "text/plain; charset=utf-8", "Bad Request");
  }

  /**
   * @param {http.ServerResponse} res
   * @param {string} message
   */
  function errorPage(res, message) {
    html(
      res,
      400,
      `<h1>Discord（テスト用）</h1>
    <p>この認可リクエストは受け付けられません。</p>
    <p>${escapeHtml(message)}</p>`
    );
  }

  /**
   * @param {http.ServerResponse} res
   * @param {number} status
   * @param {string} main
   */
  function html(res, status, main) {
    const page = `<!doctype html>
<html lang="ja">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Discord（テスト用）</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.6; }
      label { display: block; margin: 0.5rem 0; }
      input[type="text"] { display: block; width: 100%; box-sizing: border-box; padding: 0.4rem; }
      button { padding: 0.5rem 1.5rem; margin-right: 0.5rem; }
    </style>
  </head>
  <body>
    <main>
    ${main}
    </main>
  </body>
</html>
`;
    send(res, status, "text/html; charset=utf-8", page, {
      // No script at all, by design; form-action lets the post's redirect go back to the app.
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${redirectOrigin}; frame-ancestors 'none'; base-uri 'none'`,
      "Cache-Control": "no-store",
    });
  }

  return standIn;
}

/**
 * The body, or null when it is over BODY_MAX_BYTES (drained up to a point, then the socket is dropped).
 * @param {http.IncomingMessage} req
 * @returns {Promise<Buffer | null>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on("data", (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size <= BODY_MAX_BYTES) chunks.push(chunk);
      else if (size > BODY_DRAIN_MAX_BYTES) req.socket.destroy();
    });
    req.on("end", () => resolve(size > BODY_MAX_BYTES ? null : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("request aborted"));
    });
  });
}

/**
 * Form or query decoding that refuses what Discord would (bad percent-encoding, invalid UTF-8) instead of guessing,
 * and notes repeated names, which OAuth forbids.
 * @param {string} text
 * @returns {{ fields: Record<string, string>, repeated: string[] }}
 */
function parseForm(text) {
  /** @type {[string, string][]} */
  const entries = [];
  const seen = new Set();
  /** @type {string[]} */
  const repeated = [];
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = decodeFormComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? "" : decodeFormComponent(pair.slice(equals + 1));
    if (seen.has(name)) repeated.push(name);
    else entries.push([name, value]);
    seen.add(name);
  }
  // Object.fromEntries makes own properties even of "__proto__"; lookups go through known names only.
  return { fields: Object.fromEntries(entries), repeated };
}

/** @param {string} text */
function parseOrNull(text) {
  try {
    return parseForm(text);
  } catch {
    return null;
  }
}

/**
 * Throws a URIError on bad percent-encoding or invalid UTF-8.
 * @param {string} component
 */
function decodeFormComponent(component) {
  return decodeURIComponent(component.replaceAll("+", " "));
}

/**
 * HTTP Basic client credentials (RFC 6749 §2.3.1: each part form-encoded, then base64): undefined when the header is
 * not Basic, null when it is but cannot be read.
 * @param {string | undefined} header
 * @returns {{ id: string, secret: string } | null | undefined}
 */
function parseBasic(header) {
  const match = /^Basic\s+(\S*)\s*$/i.exec(header ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return null;
  try {
    return {
      id: decodeFormComponent(decoded.slice(0, colon)),
      secret: decodeFormComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return null;
  }
}

/**
 * The consent page's server list, "id:name, id:name": icons are kept for ids already known (the current list, then the
 * defaults). Null when an entry has no id or no name.
 * @param {string} text
 * @param {StandInGuild[]} [known]
 * @returns {StandInGuild[] | null}
 */
function parseGuilds(text, known = []) {
  /** @type {StandInGuild[]} */
  const guilds = [];
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const colon = entry.indexOf(":");
    const id = entry.slice(0, colon).trim();
    const name = entry.slice(colon + 1).trim();
    if (colon === -1 || !id || !name) return null;
    const icon = [...known, ...defaultGuilds()].find((guild) => guild.id === id)?.icon ?? null;
    guilds.push({ id, name, icon });
  }
  return guilds;
}

/** @param {string} value */
function sha256(value) {
  return createHash("sha256").update(value).digest("base64url");
}

function randomToken() {
  return randomBytes(24).toString("base64url");
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {string} type
 * @param {string | Buffer} body
 * @param {Record<string, string | number>} [headers]
 */
function send(res, status, type, body, headers = {}) {
  res.writeHead(status, {
    "Content-Type": type,
    "Content-Length": Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} value
 * @param {Record<string, string>} [headers]
 */
function json(res, status, value, headers = {}) {
  send(res, status, "application/json", JSON.stringify(value), headers);
}

/** @param {http.ServerResponse} res */
function notFound(res) {
  send(res, 404, "application/json", JSON.stringify({ message: "404: Not Found", code: 0 }));
}

/**
 * @param {http.ServerResponse} res
 * @param {string[]} methods
 */
function methodNotAllowed(res, methods) {
  send(res, 405, "application/json", JSON.stringify({ message: "405: Method Not Allowed", code: 0 }), { Allow: methods.join(", ") });
}
