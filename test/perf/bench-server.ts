// The built server as the benches run it (bench:explore, bench:scale), and a bench user signed in to it through the
// login form, as a browser is.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hashPassword } from "../../app/infra/auth/passwords";
import type { Database } from "../../app/infra/db";

/** Starts `build/index.js` on `databaseUrl` (no seed) on a free port; answers the process and its base URL. */
export async function startBuiltServer(databaseUrl: string): Promise<{ process: ChildProcess; url: string }> {
  if (!fs.existsSync("build/index.js") || !fs.existsSync("build/server/index.js")) throw new Error("no build: run `npm run build` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-bench-"));
  const child = spawn(process.execPath, ["build/index.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SEED: "none" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const ready = (chunk: string) => {
      out += chunk;
      const port = /GamerMatch: http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (!port) return;
      // From here its request log is not read (kept, it would grow with every request measured).
      child.stdout!.off("data", ready).resume();
      resolve(`http://127.0.0.1:${port}`);
    };
    child.stdout!.setEncoding("utf8").on("data", ready);
    child.on("exit", () => reject(new Error(`server exited:\n${out}`)));
  });
  return { process: child, url };
}

/**
 * User `uid` (a row the bench generated) with an account and a cookie session from the login form; `request` sends
 * the cookies (and keeps what the response sets), for pages and the API alike.
 */
export async function signInBenchUser(db: Database, base: string, uid: string) {
  const email = `bench-${uid.slice(-12)}@example.jp`;
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
