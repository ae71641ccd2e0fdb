// `npm run bench:first-load [-- /path …]`: what a first visit downloads, gzipped and brotli'd, per page:
// the HTML, every script and modulepreload, and the stylesheets. Starts the built server on a free
// port with a fresh PGlite unless BASE_URL points at one already running.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/inquiry", "/support"];
let base = process.env.BASE_URL;
let server;
if (!base) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-perf-"));
  server = spawn(process.execPath, ["build/index.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const port = /GamerMatch: http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    server.on("exit", () => reject(new Error(`server exited:\n${out}`)));
  });
}

const sizes = (buffer) => ({
  raw: buffer.length,
  gzip: zlib.gzipSync(buffer, { level: 6 }).length,
  br: zlib.brotliCompressSync(buffer, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length,
});
const fetchBytes = async (url) => Buffer.from(await (await fetch(url)).arrayBuffer());
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

for (const pathname of paths) {
  const html = await fetchBytes(new URL(pathname, base));
  const text = html.toString("utf8");
  const scripts = new Set([
    ...[...text.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]),
    ...[...text.matchAll(/import\("([^"]+)"\)/g)].map((m) => m[1]),
  ]);
  const styles = [...text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
  // Each file travels compressed on its own, so sum the files' compressed sizes.
  const total = async (urls) => {
    const each = await Promise.all([...urls].map(async (u) => sizes(await fetchBytes(new URL(u, base)))));
    return each.reduce((sum, s) => ({ raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip, br: sum.br + s.br }), { raw: 0, gzip: 0, br: 0 });
  };
  const [h, js, css] = [sizes(html), await total(scripts), await total(styles)];
  console.log(
    `${pathname.padEnd(12)} HTML ${kb(h.gzip)} gz / ${kb(h.br)} br · JS ${scripts.size} files ${kb(js.gzip)} gz / ${kb(js.br)} br (${kb(js.raw)} raw) · CSS ${kb(css.gzip)} gz`,
  );
}
server?.kill("SIGTERM");
