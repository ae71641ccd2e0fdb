import { randomBytes } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { signAnonKey } from "../../app/infra/auth/jwt";
import { CookieJar } from "./cookies";
import type { TestServer } from "./server";

/** supabase-js itself, pointed at the test server's local auth endpoints. */
export async function supabaseFor(app: TestServer) {
  return createClient(app.url, await signAnonKey(app.config.SUPABASE_JWT_SECRET!), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export const uniqueEmail = (prefix = "gamer") => `${prefix}-${randomBytes(5).toString("hex")}@example.jp`;
export const PASSWORD = "correct-horse-42";

/** Signs a new account up through supabase-js and answers its session. */
export async function signUp(app: TestServer, email = uniqueEmail()) {
  const supabase = await supabaseFor(app);
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  if (error || !data.session) throw error ?? new Error("no session");
  return { supabase, session: data.session, email };
}

/** A signed-up user with a profile, and a fetch that carries its bearer token. */
export async function createMember(app: TestServer, displayName = "メンバー") {
  const { session, email } = await signUp(app);
  const token = session.access_token;
  const api = (pathname: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    return app.request(pathname, {
      ...rest,
      ...(json !== undefined ? { method: rest.method ?? "POST", body: JSON.stringify(json) } : {}),
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...rest.headers },
    });
  };
  const profile = await api("/api/user/profile", { json: { displayName } });
  if (!profile.ok) throw new Error(`profile setup failed: ${profile.status}`);
  return { id: session.user.id, email, token, refreshToken: session.refresh_token, api, displayName };
}
export type Member = Awaited<ReturnType<typeof createMember>>;

/**
 * A browser without JavaScript: its cookies, page requests that keep them, and same-origin form posts (`post`), as
 * the pages' plain forms send them.
 */
export function formBrowser(app: TestServer) {
  const jar = new CookieJar();
  const page = async (pathname: string, init: RequestInit = {}) => {
    const response = await app.request(pathname, { ...init, headers: { ...init.headers, Cookie: jar.header() } });
    jar.store(response);
    return response;
  };
  const post = (pathname: string, fields: Record<string, string>) =>
    page(pathname, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, "Sec-Fetch-Site": "same-origin" }, body: new URLSearchParams(fields) });
  return { jar, page, post };
}

/** A member who also has a cookie session from the login form, as a browser without JavaScript would. */
export async function createBrowserMember(app: TestServer, displayName?: string) {
  const member = await createMember(app, displayName);
  const jar = new CookieJar();
  const login = await app.request("/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: member.email, password: PASSWORD }),
  });
  jar.store(login);
  /** A page request with the member's cookies; the response's cookies are kept, as a browser keeps them. */
  const page = async (pathname: string, init: RequestInit = {}) => {
    const response = await app.request(pathname, { ...init, headers: { ...init.headers, Cookie: jar.header() } });
    jar.store(response);
    return response;
  };
  return { ...member, page, jar };
}

/**
 * A member with a profile on a server in another process (the built server, a replica), signed up through
 * supabase-js with the server's JWT secret; `api` GETs, or POSTs `json`, with its bearer token.
 */
export async function remoteMember(baseUrl: string, secret: string, displayName = "メンバー") {
  const supabase = createClient(baseUrl, await signAnonKey(secret), {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const email = uniqueEmail();
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  if (error || !data.session) throw error ?? new Error("no session");
  const token = data.session.access_token;
  const api = (pathname: string, json?: unknown) =>
    fetch(new URL(pathname, baseUrl), {
      method: json === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  const profile = await api("/api/user/profile", { displayName });
  if (!profile.ok) throw new Error(`profile setup failed: ${profile.status}`);
  return { id: data.user!.id, email, token, api };
}
