import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { discardUnreadBody, type DiscardOptions } from "../../server/body-limit";

/**
 * The answer to a body refused before it is read reaches the client (ADR 033): small bounds here, so each path (the
 * rest discarded, a staged close beyond the bound, a consumer that cancels the body, a client that stops sending) is
 * quick to reach.
 */

const LIMITS: DiscardOptions = { maxBytes: 48 * 1024 * 1024, maxMs: 3_000, idleMs: 300, lingerMs: 300 };

/** An app whose POST /refuse answers 413 without reading, and POST /cancel cancels the body's web stream first. */
async function appWithLimits(overrides: DiscardOptions = {}) {
  const app = express();
  app.use(discardUnreadBody({ ...LIMITS, ...overrides }));
  app.post("/refuse", (_req, res) => {
    res.status(413).json({ message: "大きすぎます" });
  });
  // As a size check that throws inside a web stream pipeline does: the body's stream (Remix's, or Node's own) is
  // cancelled after its first piece.
  app.post("/cancel/:stream", async (req, res) => {
    const body = req.params.stream === "remix" ? createReadableStreamFromReadable(req) : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
    const reader = body.getReader();
    await reader.read();
    await reader.cancel(new Error("too large"));
    res.status(413).json({ message: "大きすぎます" });
  });
  app.get("/next", (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

interface Exchange {
  /** Everything the server sent, in order. */
  received: string;
  /** Body bytes the client wrote before the connection failed (or all of them). */
  sent: number;
  /** Whether the server's FIN came, and how long after the first answer byte. */
  fin: boolean;
  finAfterAnswerMs: number;
  /** A reset or a failed write ("ECONNRESET", "EPIPE"), if one came. */
  error?: string;
}

/**
 * A raw connection that sends `head`, then `bodyBytes` of body in 64 KB pieces, then `then` (a next request), and
 * after `waitMs` reports what came back and how the connection went. It keeps sending after a FIN, as a browser does
 * until its upload is out, so a server that closes with bytes unread shows up as a reset.
 */
/**
 * One exchange on a raw socket: `head`, then `bodyBytes` of body as fast as the socket takes them, then `then`. It ends
 * after `waitMs`, or, with `untilFin`, shortly after the whole body went out and the server's FIN arrived (a reset would
 * come before that), `waitMs` being then only the limit.
 */
function exchange(port: number, { head, bodyBytes, then = "", waitMs, untilFin = false }: { head: string; bodyBytes: number; then?: string; waitMs: number; untilFin?: boolean }) {
  return new Promise<Exchange>((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const result: Exchange = { received: "", sent: 0, fin: false, finAfterAnswerMs: -1, error: undefined };
    let answeredAt = 0;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(finish, waitMs);
    const maybeDone = () => {
      if (untilFin && result.fin && result.sent === bodyBytes) setTimeout(finish, 200);
    };
    socket.setEncoding("utf8");
    socket.on("data", (data) => {
      if (!answeredAt) answeredAt = Date.now();
      result.received += data;
    });
    socket.on("end", () => {
      result.fin = true;
      result.finAfterAnswerMs = answeredAt ? Date.now() - answeredAt : -1;
      maybeDone();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      result.error ??= error.code ?? error.message;
    });
    socket.on("connect", async () => {
      socket.write(head);
      const piece = Buffer.alloc(64 * 1024, 0x61);
      for (let left = bodyBytes; left > 0; left -= piece.length) {
        if (socket.destroyed) return;
        const data = left >= piece.length ? piece : piece.subarray(0, left);
        const flushed = socket.write(data, (error) => {
          if (!error) result.sent += data.length;
          maybeDone();
        });
        if (!flushed) {
          await new Promise<void>((resolve) => {
            const done = () => {
              socket.off("drain", done).off("close", done);
              resolve();
            };
            socket.once("drain", done).once("close", done);
          });
        }
      }
      if (!socket.destroyed && then) socket.write(then);
    });
  });
}
const post = (path: string, length: number, extra = "") => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${length}\r\n${extra}\r\n`;
const NEXT = "GET /next HTTP/1.1\r\nHost: localhost\r\n\r\n";

describe("discardUnreadBody", () => {
  it("answers before reading, drops the rest of a body within the bound, and serves the next request on the connection", async () => {
    const port = await appWithLimits();
    const bytes = 3 * 1024 * 1024;
    const result = await exchange(port, { head: post("/refuse", bytes), bodyBytes: bytes, then: NEXT, waitMs: 1_000 });
    expect(result.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.received).toContain("大きすぎます");
    expect(result.received).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\{"ok":true\}$/);
    expect(result).toMatchObject({ sent: bytes, fin: false, error: undefined });
  });

  it("a client that says Connection: close gets the answer, sends its whole body and then the FIN, never a reset", async () => {
    // A client on a busy machine may pause between writes longer than the tight idle bound of the other cases: this one
    // is about the whole body arriving before the FIN, not about the idle time, so it gets a bound no stall reaches
    // (it once met 300 ms at a load average of 10, and the server rightly let it go).
    const port = await appWithLimits({ idleMs: 3_000, maxMs: 30_000 });
    const bytes = 40 * 1024 * 1024;
    const result = await exchange(port, { head: post("/refuse", bytes, "Connection: close\r\n"), bodyBytes: bytes, waitMs: 30_000, untilFin: true });
    expect(result.received).toMatch(/^HTTP\/1\.1 413 [\s\S]*大きすぎます/);
    expect(result).toMatchObject({ sent: bytes, fin: true, error: undefined });
  });

  it.each(["remix", "node"])("a consumer that cancels the body (%s's web stream) does not take the connection with it: the answer arrives", async (stream) => {
    const port = await appWithLimits();
    const bytes = 3 * 1024 * 1024;
    const result = await exchange(port, { head: post(`/cancel/${stream}`, bytes), bodyBytes: bytes, then: NEXT, waitMs: 1_000 });
    expect(result.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.received).toContain("大きすぎます");
    expect(result.received).toContain('{"ok":true}');
    expect(result).toMatchObject({ sent: bytes, error: undefined });
  });

  it("a body declared beyond the bound: the answer, then at once a FIN while the client is still sending", async () => {
    const port = await appWithLimits();
    const bytes = 256 * 1024 * 1024;
    const result = await exchange(port, { head: post("/refuse", bytes), bodyBytes: bytes, waitMs: 2_000 });
    expect(result.received).toMatch(/^HTTP\/1\.1 413 [\s\S]*大きすぎます/);
    expect(result.fin).toBe(true);
    expect(result.finAfterAnswerMs).toBeLessThan(100);
  });

  it("a chunked body that passes the bound: the answer, then the FIN once the bound is passed", async () => {
    const port = await appWithLimits();
    // One endless chunk: the server sees body bytes until it gives up.
    const head = `POST /refuse HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n${(256 * 1024 * 1024).toString(16)}\r\n`;
    const result = await exchange(port, { head, bodyBytes: 256 * 1024 * 1024, waitMs: 3_000 });
    expect(result.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.fin).toBe(true);
  });

  it("a client that stops sending mid-body is let go after the idle time", async () => {
    const port = await appWithLimits();
    const result = await exchange(port, { head: post("/refuse", 1024 * 1024), bodyBytes: 100 * 1024, waitMs: 2_000 });
    expect(result.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(result).toMatchObject({ fin: true, error: undefined });
    expect(result.finAfterAnswerMs).toBeGreaterThanOrEqual(250);
    expect(result.finAfterAnswerMs).toBeLessThan(1_000);
  });

  it("leaves alone what was read: a request whose body the route read keeps its connection", async () => {
    const app = express();
    app.use(discardUnreadBody(LIMITS));
    app.post("/read", express.text(), (req, res) => {
      res.json({ length: (req.body as string).length });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    closers.push(() => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    });
    const { port } = server.address() as AddressInfo;
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request({ port, host: "127.0.0.1", path: "/read", method: "POST", headers: { "Content-Type": "text/plain" } }, (res) => {
        let body = "";
        res.on("data", (piece) => (body += piece));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      request.on("error", reject);
      request.end("こんにちは");
    });
    expect(response).toEqual({ status: 200, body: '{"length":5}' });
  });
});
