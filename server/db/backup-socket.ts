import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import type { DatabaseHandle } from "../../app/infra/db";
import { log } from "../../app/infra/logger.server";
import { countRows, queryOf, type RowCounts } from "./row-counts";

/**
 * Backups of the embedded database while the app runs (ADR 050). PGlite is one process holding its directory: nothing
 * else may open it, and a copy of its files taken from outside could catch a write half done. So the running server
 * itself holds the database still between two transactions and streams its files as a tar (`copyDataDir` in
 * app/infra/db), for `npm run db:backup`, which asks over a Unix socket in DATA_DIR. Only who may read DATA_DIR may connect (the socket is 0600, as secrets.json): the same people
 * who could copy the files anyway. Nothing listens on a port, so nothing of this reaches the network.
 */

export const backupSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), "backup.sock");

/** The one request: the data directory as a tar, its tables' row counts in this header (JSON), its size in this trailer. */
const DUMP_PATH = "/pglite";
const ROW_COUNTS_HEADER = "x-row-counts";
const BYTES_TRAILER = "x-tar-bytes";
/** A copy whose reader takes nothing for this long is cut: the app's queries wait while it lasts. */
const STALLED_MS = 10_000;
/** PGlite's notes about the process that has the directory open: not part of the database. */
const NOT_COPIED = new Set(["postmaster.pid", "postmaster.opts"]);
/** sun_path holds 108 bytes with its terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 107;

export interface BackupSocket {
  path: string;
  close(): Promise<void>;
}

/**
 * PGlite's data directory as a tar, streamed from its files into what `into` answers once the row counts are read, while
 * the database is held still; answers the counts, the tar's size and how long the app's queries waited.
 */
export async function tarDataDir(database: DatabaseHandle, into: (tables: RowCounts) => Writable) {
  let bytes = 0;
  let heldFrom = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const tables = await database.copyDataDir!({
    read: (db) => {
      heldFrom = performance.now();
      return countRows(queryOf(db));
    },
    copy: async (directory, tables) => {
      const files = tar.create({ cwd: directory, portable: true, filter: (file) => !NOT_COPIED.has(file.replace(/^\.\//, "")) }, ["."]);
      await pipeline(Readable.from(files), counted, into(tables), { end: false });
    },
  });
  return { tables, bytes, heldMs: Math.round(performance.now() - heldFrom) };
}

/** Serves backups of `database` on DATA_DIR/backup.sock; on PostgreSQL (pg_dump's job) it answers undefined. */
export async function serveBackups({ dataDir, database }: { dataDir: string; database: DatabaseHandle }): Promise<BackupSocket | undefined> {
  if (!database.copyDataDir) return undefined;
  const socketPath = backupSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    log.warn({ event: "backup", socketPath }, `backup: DATA_DIR's path is too long for a Unix socket: npm run db:backup cannot reach this server (stop it to back up)`);
    return undefined;
  }
  if ((await serverAt(socketPath)) === "running") {
    log.error({ event: "backup", socketPath }, "backup: another process answers on this DATA_DIR's backup socket: is a second server running on the same DATA_DIR?");
    return undefined;
  }
  // What is left is a crashed server's socket.
  fs.rmSync(socketPath, { force: true });

  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url !== DUMP_PATH) {
      res.writeHead(404).end();
      return;
    }
    void (async () => {
      try {
        const { bytes, heldMs } = await tarDataDir(database, (tables) => {
          // A reader that stops reading (a command suspended) would hold the database still: it is cut off instead.
          res.setTimeout(STALLED_MS, () => res.destroy(new Error(`the copy's reader took nothing for ${STALLED_MS} ms`)));
          return res.writeHead(200, { "Content-Type": "application/x-tar", Trailer: BYTES_TRAILER, [ROW_COUNTS_HEADER]: JSON.stringify(tables) });
        });
        res.addTrailers({ [BYTES_TRAILER]: String(bytes) });
        res.end();
        log.info({ event: "backup", bytes, heldMs }, `backup: data directory copied for npm run db:backup (${bytes} bytes; queries waited ${heldMs} ms)`);
      } catch (error) {
        log.error({ event: "backup", err: error }, "backup: the data directory could not be copied");
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end(error instanceof Error ? error.message : String(error));
        else res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Created 0600 from the start (bind happens inside listen), not opened to everyone until a chmod.
    const umask = process.umask(0o177);
    try {
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        // A copy in progress finishes first (the database's close waits for it too); an idle client is not waited for.
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(resolve, 5_000).unref();
      }),
  };
}

/** Whether a server answers on this socket; a missing socket, or one left by a crashed server, is "stopped". */
export function serverAt(socketPath: string): Promise<"running" | "stopped"> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve("running");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve("stopped");
      else reject(new Error(`cannot reach ${socketPath}: ${error.code ?? error.message} (run as the user the server runs as)`));
    });
  });
}

/**
 * Asks the server running on this socket for its data directory, written to `file`; answers its tables' row counts
 * and size, or undefined when no server runs there.
 */
export function copyFromRunningServer(socketPath: string, file: string): Promise<{ tables: RowCounts; bytes: number } | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.get({ socketPath, path: DUMP_PATH, headers: { Connection: "close" } }, (response) => {
      if (response.statusCode !== 200) {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => reject(new Error(`the running server could not copy its database (${response.statusCode}): ${text}`)));
        return;
      }
      const tables = JSON.parse(String(response.headers[ROW_COUNTS_HEADER] ?? "{}")) as RowCounts;
      pipeline(response, fs.createWriteStream(file, { mode: 0o600 })).then(() => {
        // The trailer comes after the last byte: without it (or with another size) the copy broke off.
        const bytes = fs.statSync(file).size;
        if (response.trailers[BYTES_TRAILER] !== String(bytes)) reject(new Error(`the running server's copy broke off after ${bytes} bytes`));
        else resolve({ tables, bytes });
      }, reject);
    });
    request.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(undefined);
      else reject(error);
    });
  });
}
