import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { productionStart } from "../start-command.mjs";
import { findHaproxy, MISSING_HAPROXY_LINE } from "./haproxy.mjs";

/**
 * Two (or more) replicas of the built server behind HAProxy, on one PostgreSQL and one Redis (ADR 034): what
 * `npm run cluster` runs (server/cluster/cli.ts) and what the cluster test drives (test/cluster/). It starts
 * things and stops them; it restarts nothing by itself. A replica that dies stays dead until someone starts it
 * again (`replica.start()`; the CLI's SIGHUP), and HAProxy sends its users to the others meanwhile.
 */

const TEMPLATE = fileURLToPath(new URL("./haproxy.cfg.template", import.meta.url));

export { ensureHaproxy, findHaproxy, MISSING_HAPROXY_LINE } from "./haproxy.mjs";

/** The HAProxy configuration for these replicas, from the template beside this file. */
export function haproxyConfig({
  bind,
  statsSocket,
  replicas,
  template = fs.readFileSync(TEMPLATE, "utf8"),
}: {
  bind: string;
  statsSocket: string;
  replicas: Array<{ name: string; port: number }>;
  template?: string;
}) {
  const values: Record<string, string> = {
    BIND: bind,
    STATS_SOCKET: statsSocket,
    // The cookie value is the replica's name: a browser's long poll comes back to the replica that holds its session.
    SERVERS: replicas.map(({ name, port }) => `    server ${name} 127.0.0.1:${port} cookie ${name}`).join("\n"),
  };
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`haproxy.cfg.template: unknown placeholder {{${key}}}`);
    return values[key]!;
  });
}

/** What HAProxy's `show stat` says of a replica: UP, DOWN, MAINT, or a transition such as "UP 1/2". */
export type ReplicaState = string;

/** Sends one command to HAProxy's stats socket and answers its whole reply. */
export function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(socketPath);
    let reply = "";
    connection.setEncoding("utf8");
    connection.on("connect", () => connection.end(`${command}\n`));
    connection.on("data", (chunk: string) => (reply += chunk));
    connection.on("end", () => resolve(reply));
    connection.on("error", reject);
  });
}

/** Each replica's state and open sessions, as HAProxy's backend sees them. */
export async function backendStatus(socketPath: string): Promise<Map<string, { state: ReplicaState; sessions: number }>> {
  const csv = await haproxyCommand(socketPath, "show stat");
  const [header, ...rows] = csv.trim().split("\n");
  const columns = (header ?? "").replace(/^# /, "").split(",");
  const at = (name: string) => columns.indexOf(name);
  const status = new Map<string, { state: ReplicaState; sessions: number }>();
  for (const row of rows) {
    const cells = row.split(",");
    if (cells[at("pxname")] !== "replicas" || ["BACKEND", "FRONTEND"].includes(cells[at("svname")]!)) continue;
    status.set(cells[at("svname")]!, { state: cells[at("status")]!, sessions: Number(cells[at("scur")]) });
  }
  return status;
}

export interface ReplicaExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Replica {
  name: string;
  /** Its own port on 127.0.0.1 (HAProxy's server line); it keeps it across restarts. */
  port: number;
  url: string;
  /** The running process's id, undefined while it is not running. */
  pid: number | undefined;
  running: boolean;
  /** Sends a signal to the running process and answers how it exited (SIGTERM: the drain; SIGKILL: a crash). */
  signal(signal: NodeJS.Signals): Promise<ReplicaExit>;
  /** Starts it again on its port and answers once it printed its ready line (HAProxy takes it in after two checks). */
  start(): Promise<void>;
}

export interface Cluster {
  /** Where the app is: HAProxy's public address. */
  url: string;
  replicas: Replica[];
  haproxyPid: number;
  /** HAProxy's view of the replicas. */
  status(): ReturnType<typeof backendStatus>;
  /** Resolves once HAProxy reports the replica in this state (UP: in rotation; DOWN: out). */
  waitForState(name: string, state: "UP" | "DOWN", timeoutMs?: number): Promise<void>;
  /** Restarts each replica in turn (SIGTERM, wait for its exit, start, wait until HAProxy has it UP): a deploy. */
  rollingRestart(): Promise<void>;
  /** SIGTERM to every replica (each drains), then HAProxy; SIGKILL to whatever has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL to every process at once (a second Ctrl-C). */
  kill(): void;
  /** Resolves when HAProxy exits by itself (it never should). */
  haproxyExited: Promise<ReplicaExit>;
}

export interface ClusterOptions {
  /** The replicas' environment: DATABASE_URL and REDIS_URL at least. PORT and HOST are the cluster's, not theirs. */
  env: Record<string, string | undefined>;
  /** The public port HAProxy listens on (0 is not allowed: HAProxy would not say which it took). */
  port: number;
  /** The public address HAProxy binds; 0.0.0.0 by default, like the server. */
  host?: string;
  replicas?: number;
  /** The built server to run (`npm start`'s build/index.js), and the directory it runs in. */
  entry?: string;
  cwd?: string;
  haproxyPath?: string;
  /** Every line a process prints, with its name ("replica-1", "haproxy"). */
  onLine?: (source: string, line: string, stream: "stdout" | "stderr") => void;
  /** A replica or HAProxy exited without being asked to (the cluster restarts nothing). */
  onUnexpectedExit?: (source: string, exit: ReplicaExit) => void;
}

const READY_LINE = /GamerMatch: http:\/\/[^\s:]+:(\d+)/;

/** The problem with this environment for a cluster, or undefined: replicas share nothing but PostgreSQL and Redis. */
export function clusterEnvProblem(env: Record<string, string | undefined>): string | undefined {
  const missing = ["DATABASE_URL", "REDIS_URL"].filter((name) => !env[name]);
  if (missing.length === 0) return undefined;
  return (
    `The cluster needs ${missing.join(" and ")}: its replicas share their data through PostgreSQL (DATABASE_URL) and ` +
    "their sockets' events through Redis (REDIS_URL). For example:\n" +
    "  DATABASE_URL=postgres://user:password@127.0.0.1:5432/gamermatch REDIS_URL=redis://127.0.0.1:6379 npm run cluster"
  );
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const problem = clusterEnvProblem(options.env);
  if (problem) throw new Error(problem);
  const cwd = options.cwd ?? process.cwd();
  const entry = options.entry ?? "build/index.js";
  if (!fs.existsSync(path.resolve(cwd, entry))) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const haproxyPath = options.haproxyPath ?? findHaproxy();
  if (!haproxyPath) throw new Error(MISSING_HAPROXY_LINE);
  const host = options.host ?? "0.0.0.0";
  const publicHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const onLine = options.onLine ?? (() => {});
  const onUnexpectedExit = options.onUnexpectedExit ?? (() => {});
  const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-cluster-"));
  const statsSocket = path.join(runtimeDir, "haproxy.sock");
  // `npm start`'s Node flags and variables (its memory settings), the caller's environment over them.
  const start = productionStart(cwd);
  const env: Record<string, string> = {
    ...(Object.fromEntries(Object.entries(options.env).filter(([, value]) => value !== undefined)) as Record<string, string>),
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    // HAProxy sets X-Forwarded-For (one entry): the replicas rate-limit by the client's address, not HAProxy's.
    TRUST_PROXY: "true",
    // Links in mails point at the cluster, not at the replica that wrote them.
    SITE_URL: options.env.SITE_URL || `http://${publicHost}:${options.port}`,
  };

  const children = new Set<ChildProcess>();
  let stopping = false;

  /** Spawns a process whose lines go to onLine; answers it and how it exits. */
  const run = (source: string, command: string, args: string[], childEnv: Record<string, string>) => {
    // Its own process group: a Ctrl-C in the terminal reaches the cluster script alone, which then stops the
    // replicas before HAProxy, each once (a replica takes a second signal as "exit now").
    const child = spawn(command, args, { cwd, env: childEnv as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
    children.add(child);
    for (const stream of ["stdout", "stderr"] as const) {
      let partial = "";
      child[stream]!.setEncoding("utf8");
      child[stream]!.on("data", (chunk: string) => {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop()!;
        for (const line of lines) onLine(source, line, stream);
      });
    }
    const exited = new Promise<ReplicaExit>((resolve) =>
      child.once("exit", (code, signal) => {
        children.delete(child);
        resolve({ code, signal });
      }),
    );
    return { child, exited };
  };

  const replicas: Array<Replica & { expectingExit: boolean }> = [];
  const makeReplica = (name: string): Replica & { expectingExit: boolean } => {
    let current: { child: ChildProcess; exited: Promise<ReplicaExit> } | undefined;
    const replica = {
      name,
      port: 0,
      expectingExit: false,
      get url() {
        return `http://127.0.0.1:${replica.port}`;
      },
      get pid() {
        return current?.child.pid;
      },
      get running() {
        return current !== undefined;
      },
      async signal(signal: NodeJS.Signals) {
        if (!current) throw new Error(`${name} is not running`);
        replica.expectingExit = true;
        current.child.kill(signal);
        return current.exited;
      },
      async start() {
        if (current) throw new Error(`${name} is already running`);
        replica.expectingExit = false;
        // The first start takes any free port; later ones take the same again, HAProxy's server line for it.
        const started = run(name, process.execPath, [...start.flags, entry], { ...start.env, ...env, PORT: String(replica.port) });
        current = started;
        started.exited.then((exit) => {
          current = undefined;
          if (!replica.expectingExit && !stopping) onUnexpectedExit(name, exit);
        });
        const port = await new Promise<number>((resolve, reject) => {
          let output = "";
          const listen = (chunk: string) => {
            output += chunk;
            const match = READY_LINE.exec(output);
            if (match) {
              started.child.stdout!.off("data", listen);
              resolve(Number(match[1]));
            }
          };
          started.child.stdout!.on("data", listen);
          started.exited.then((exit) => reject(new Error(`${name} stopped before it was ready (${exit.signal ?? `exit ${exit.code}`})`)));
        });
        replica.port = port;
      },
    };
    return replica;
  };

  const status = () => backendStatus(statsSocket);
  const waitForState = async (name: string, state: "UP" | "DOWN", timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = (await status().catch(() => undefined))?.get(name)?.state;
      if (seen === state) return;
      if (Date.now() > deadline) throw new Error(`HAProxy did not report ${name} ${state} within ${timeoutMs} ms (last: ${seen ?? "nothing"})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  let haproxy: ReturnType<typeof run> | undefined;
  const killEverything = () => {
    for (const child of children) child.kill("SIGKILL");
  };
  try {
    // One replica first: it applies the migrations (and the seed, and DATA_DIR's generated secrets, which every
    // replica must share) before the others start on the same database and directory.
    const count = options.replicas ?? 2;
    for (let i = 1; i <= count; i++) replicas.push(makeReplica(`replica-${i}`));
    await replicas[0]!.start();
    await Promise.all(replicas.slice(1).map((replica) => replica.start()));

    fs.writeFileSync(path.join(runtimeDir, "haproxy.cfg"), haproxyConfig({ bind: `${host.includes(":") ? `[${host}]` : host}:${options.port}`, statsSocket, replicas }));
    // -W: master-worker (SIGUSR1 finishes open connections, SIGTERM stops at once); -db: foreground, logs on stdout.
    haproxy = run("haproxy", haproxyPath, ["-W", "-db", "-f", path.join(runtimeDir, "haproxy.cfg")], { PATH: process.env.PATH ?? "" });
    const early = await Promise.race([haproxy.exited, waitForSocket(statsSocket, 10_000).then(() => undefined)]);
    if (early) throw new Error(`HAProxy stopped at start (${early.signal ?? `exit ${early.code}`}): see its lines above`);
    await Promise.all(replicas.map((replica) => waitForState(replica.name, "UP")));
  } catch (error) {
    stopping = true;
    killEverything();
    fs.rmSync(runtimeDir, { recursive: true, force: true });
    throw error;
  }
  const started = haproxy;
  started.exited.then((exit) => {
    if (!stopping) onUnexpectedExit("haproxy", exit);
  });

  let stopped: Promise<void> | undefined;
  return {
    url: `http://${publicHost === "localhost" ? "127.0.0.1" : publicHost}:${options.port}`,
    replicas,
    haproxyPid: started.child.pid!,
    haproxyExited: started.exited,
    status,
    waitForState,
    kill: killEverything,
    async rollingRestart() {
      for (const replica of replicas) {
        // Only while another replica is in rotation: a deploy never leaves nobody to serve.
        const others = [...(await status()).entries()].filter(([name, { state }]) => name !== replica.name && state === "UP");
        if (others.length === 0) throw new Error(`no other replica is UP: not restarting ${replica.name}`);
        if (replica.running) await replica.signal("SIGTERM");
        await replica.start();
        await waitForState(replica.name, "UP");
      }
    },
    stop(graceMs = 15_000) {
      stopped ??= (async () => {
        stopping = true;
        const force = setTimeout(killEverything, graceMs);
        await Promise.all(replicas.filter((replica) => replica.running).map((replica) => replica.signal("SIGTERM")));
        started.child.kill("SIGUSR1");
        await started.exited;
        clearTimeout(force);
        fs.rmSync(runtimeDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Resolves once a Unix socket accepts connections. */
async function waitForSocket(socketPath: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const connection = net.createConnection(socketPath);
      connection.once("connect", () => (connection.destroy(), resolve(true)));
      connection.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`HAProxy's stats socket did not open within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A free TCP port on this machine, for a test's public port (HAProxy cannot be told to pick one). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** "HAProxy version 2.6.12-1+deb12u4", from the first line of `haproxy -v`. */
export function haproxyVersion(haproxyPath: string) {
  return (spawnSync(haproxyPath, ["-v"], { encoding: "utf8" }).stdout ?? "").split("\n")[0]!.split(" - ")[0]!.replace(/ \d{4}\/\d\d\/\d\d$/, "").trim();
}
