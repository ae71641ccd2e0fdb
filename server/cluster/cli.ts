import { parseArgs } from "node:util";
import { clusterEnvProblem, ensureHaproxy, haproxyVersion, startCluster, type Cluster } from "./cluster";

/**
 * `npm run cluster [-- --replicas N]`: N replicas (2 by default) of the built server on PostgreSQL (DATABASE_URL)
 * and Redis (REDIS_URL) behind HAProxy on PORT (3000 by default), until Ctrl-C or SIGTERM stops them all. SIGHUP
 * restarts the replicas one at a time (a deploy after `npm run build`). Nothing is restarted by itself: a replica that
 * dies is reported and stays out of rotation until the next SIGHUP or start. Every other variable is passed to the
 * replicas as it is (README, configuration).
 */
async function main() {
  const { values } = parseArgs({ options: { replicas: { type: "string", default: "2" } } });
  const replicas = Number(values.replicas);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16) return fail("--replicas must be a whole number from 1 to 16");
  const problem = clusterEnvProblem(process.env);
  if (problem) return fail(problem);
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return fail(`PORT must be a port number (1–65535), not ${process.env.PORT}`);

  const haproxy = ensureHaproxy();
  if ("error" in haproxy) return fail(haproxy.error);
  console.log(`[cluster] ${haproxyVersion(haproxy.path) || "HAProxy"} at ${haproxy.path}; starting ${replicas} replicas…`);

  const { PORT: _port, HOST: host, ...env } = process.env;
  let cluster: Cluster | undefined;
  let stopping = false;
  const shutDown = (running: Cluster) =>
    running.stop().then(
      () => {
        console.log("[cluster] stopped");
        process.exit(0);
      },
      (error) => {
        console.error("[cluster] stop failed:", error);
        process.exit(1);
      },
    );
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.log(`[cluster] ${signal} again: killing everything now`);
      cluster?.kill();
      process.exit(1);
    }
    stopping = true;
    console.log(`[cluster] ${signal}: draining the replicas, then stopping HAProxy`);
    // Still starting: the start finishes first (a replica half-way through its migrations is left to finish them).
    if (cluster) void shutDown(cluster);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  try {
    cluster = await startCluster({
      env,
      port,
      host: host || undefined,
      replicas,
      haproxyPath: haproxy.path,
      onLine: (source, line, stream) => (stream === "stderr" ? console.error : console.log)(`[${source}] ${line}`),
      onUnexpectedExit: (source, exit) => {
        console.error(`[cluster] ${source} exited (${exit.signal ?? `exit ${exit.code}`}); not restarting it`);
        if (source === "haproxy") stop("SIGTERM");
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
  if (stopping) return void shutDown(cluster);

  const started = cluster;
  process.on("SIGHUP", () => {
    console.log("[cluster] SIGHUP: restarting the replicas one at a time");
    started.rollingRestart().then(
      () => console.log("[cluster] every replica restarted"),
      (error) => console.error("[cluster] rolling restart stopped:", (error as Error).message),
    );
  });
  const ports = started.replicas.map((replica) => `${replica.name} on ${replica.port}`).join(", ");
  console.log(`[cluster] GamerMatch: ${started.url} (HAProxy, pid ${started.haproxyPid}; ${ports}). Ctrl-C stops everything.`);
}

function fail(message: string) {
  console.error(message);
  process.exit(1);
}

main().catch((error) => {
  console.error("[cluster] failed:", error);
  process.exit(1);
});
