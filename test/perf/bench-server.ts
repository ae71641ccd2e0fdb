// The built server as the benches run it (bench:explore, bench:scale), and a bench user signed in to it through the
// login form, as a browser is.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hashPassword } from "../../app/infra/auth/passwords";
import { productionStart } from "../../server/start-command.mjs";
import type { Database } from "../../app/infra/db";
import { userEmailOf } from "./bench-data";


/** A slow query as the server logs it (DATABASE_SLOW_QUERY_MS), with when the bench read the line. */
export interface SlowQuery {
  at: number;
  ms: number;
  sql: string;
  parameters?: unknown[];
}

/** The bearer token of the bench server's `/metrics`. */
export const BENCH_METRICS_TOKEN = "bench-metrics-token-0123456789";

/** What the server holds after a full garbage collection (test/support/gc-on-signal.cjs), in bytes. */
export interface AfterCollection {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Each of V8's heap spaces: [committed, used]. */
  spaces: Record<string, [number, number]>;
}

/**
 * Starts `build/index.js` on `databaseUrl` (no seed) on a free port; answers the process and its base URL. With
 * `slowQueryMs` the server logs queries that take that long with their parameters, each handed to `onSlowQuery`.
 * `collectGarbage` runs a full collection in the server and answers what it still holds.
 */
export async function startBuiltServer(
  databaseUrl: string,
  { slowQueryMs, onSlowQuery }: { slowQueryMs?: number; onSlowQuery?: (query: SlowQuery) => void } = {}
): Promise<{ process: ChildProcess; url: string; collectGarbage: () => Promise<AfterCollection> }> {
  if (!fs.existsSync("build/index.js") || !fs.existsSync("build/server/index.js")) throw new Error("no build: run `npm run build` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-bench-"));
  // What `npm start` sets, so that the benches measure the process production runs.
  const start = productionStart();
  const child = spawn(process.execPath, [...start.flags, "build/index.js"], {
    env: {
      ...process.env,
      ...start.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SEED: "none",
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require ${path.resolve("test/support/gc-on-signal.cjs")}`].filter(Boolean).join(" "),
      ...(slowQueryMs ? { DATABASE_SLOW_QUERY_MS: String(slowQueryMs), DATABASE_SLOW_QUERY_PARAMETERS: "true" } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // stderr passes through, but for the collections' reports.
  const collected: Array<(after: AfterCollection) => void> = [];
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    for (const line of chunk.split(/(?<=\n)/)) {
      const report = /^gc: done \d+ (\{.*\})/.exec(line);
      if (report) collected.shift()?.(JSON.parse(report[1]!) as AfterCollection);
      else process.stderr.write(line);
    }
  });
  const collectGarbage = () =>
    new Promise<AfterCollection>((resolve) => {
      collected.push(resolve);
      child.kill("SIGUSR2");
    });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const ready = (chunk: string) => {
      out += chunk;
      const port = /GamerMatch: http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (!port) return;
      // From here its log is read only for slow queries (kept, it would grow with every request measured).
      child.stdout!.off("data", ready);
      if (!onSlowQuery) child.stdout!.resume();
      else {
        let partial = "";
        child.stdout!.on("data", (chunk: string) => {
          const lines = (partial + chunk).split("\n");
          partial = lines.pop()!;
          for (const line of lines) {
            if (!line.includes('"slow_query"')) continue;
            const { ms, sql, parameters } = JSON.parse(line) as Omit<SlowQuery, "at">;
            onSlowQuery({ at: performance.now(), ms, sql, parameters });
          }
        });
      }
      resolve(`http://127.0.0.1:${port}`);
    };
    child.stdout!.setEncoding("utf8").on("data", ready);
    child.on("exit", () => reject(new Error(`server exited:\n${out}`)));
  });
  return { process: child, url, collectGarbage };
}

/**
 * User `uid` (a row the bench generated) with an account and a cookie session from the login form; `request` sends
 * the cookies (and keeps what the response sets), for pages and the API alike.
 */
export async function signInBenchUser(db: Database, base: string, uid: string) {
  const email = userEmailOf(uid);
  const password = "bench-password-42";
  await db
    .insertInto("auth_users")
    .values({ id: uid, email, password_hash: await hashPassword(password), email_confirmed_at: new Date() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(";")[0]!;
      const at = pair.indexOf("=");
      const value = pair.slice(at + 1);
      if (value) cookies.set(pair.slice(0, at), value);
      else cookies.delete(pair.slice(0, at));
    }
  };
  const login = await fetch(new URL("/login", base), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }),
  });
  keep(login);
  if (![...cookies.keys()].some((name) => name.includes("auth-token"))) throw new Error(`user ${uid}: the login gave no session cookie (${login.status})`);
  return {
    uid,
    /** An access token of a session of the user's own (the realtime handshake's `auth.token`). */
    async accessToken() {
      const response = await fetch(new URL("/auth/v1/token?grant_type=password", base), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      if (!response.ok) throw new Error(`user ${uid}: the password grant answered ${response.status}`);
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async request(pathname: string, init: RequestInit = {}) {
      const response = await fetch(new URL(pathname, base), {
        redirect: "manual",
        ...init,
        headers: { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "), Origin: base, ...init.headers },
      });
      keep(response);
      return response;
    },
  };
}
export type BenchSession = Awaited<ReturnType<typeof signInBenchUser>>;
