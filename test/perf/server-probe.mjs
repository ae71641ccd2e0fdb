// A probe loaded into the server by bench:chat (`--probe`, as `node --import`): once a second it writes to stderr the
// event loop's delay (how late the server's thread runs what is due) and the PostgreSQL pool's wait (how long a
// query waited for a connection, and how many waited at most), the two queues a half-idle machine would point to.
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const waits = [];
let waitingMost = 0;
const connect = pg.Pool.prototype.connect;
pg.Pool.prototype.connect = function (callback) {
  const asked = performance.now();
  waitingMost = Math.max(waitingMost, this.waitingCount + 1);
  if (callback) return connect.call(this, (...args) => (waits.push(performance.now() - asked), callback(...args)));
  return connect.call(this).then((client) => (waits.push(performance.now() - asked), client));
};

const at = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0);
setInterval(() => {
  const sorted = waits.splice(0).sort((a, b) => a - b);
  const pool = sorted.length ? `; pool wait p50 ${at(sorted, 0.5).toFixed(1)} p99 ${at(sorted, 0.99).toFixed(1)} ms over ${sorted.length} checkouts, at most ${waitingMost} waiting` : "";
  process.stderr.write(`[probe] event loop delay mean ${(loop.mean / 1e6).toFixed(1)} p99 ${(loop.percentile(99) / 1e6).toFixed(1)} max ${(loop.max / 1e6).toFixed(1)} ms${pool}\n`);
  loop.reset();
  waitingMost = 0;
}, 1000).unref();
