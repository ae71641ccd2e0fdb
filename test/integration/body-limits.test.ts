import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCARD_MAX_BYTES } from "../../server/body-limit";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { serverWithSockets } from "../support/sockets";

/**
 * Bodies over a limit are answered, not reset (ADR 033): the answer to a body refused before it is read
 * reaches fetch, curl and a plain form post, with the product's Japanese message, on whichever engine the run uses.
 */

const server = serverWithSockets({
  seed: false,
  // The webhook's own limit is only there when Stripe is configured; nothing here talks to Stripe's API.
  env: { STRIPE_SECRET_KEY: "sk_test_local", STRIPE_WEBHOOK_SECRET: "whsec_body_limits", STRIPE_API_BASE: "http://127.0.0.1:9" },
});
const TOO_LARGE = "画像のサイズは10MBまでです";
const ELEVEN_MB = 11 * 1024 * 1024;

const bigFile = (bytes = ELEVEN_MB, name = "big.jpg") => new File([new Uint8Array(bytes)], name, { type: "image/jpeg" });
function uploadForm(bytes = ELEVEN_MB) {
  const form = new FormData();
  form.append("type", "post");
  form.append("file", bigFile(bytes));
  return form;
}

let member: Member;
let scratch: string;
beforeAll(async () => {
  member = await createMember(server.app, "大きな画像の人");
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "gm-body-limits-"));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const BOUNDARY = "----gm-body-limits";
const formHead = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\npost\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
);
const formTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/**
 * An upload whose file arrives in 64 KB pieces with a turn of the event loop between them, as a file does over a
 * network rather than from memory: with its Content-Length, or chunked. Sent all at once over loopback, a body is
 * mostly in the server's socket before the answer, which hides a reset.
 */
function pacedUpload(fileBytes: number, { withLength }: { withLength: boolean }) {
  const piece = new Uint8Array(64 * 1024);
  let left = fileBytes;
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(formHead),
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve));
      if (left <= 0) {
        controller.enqueue(formTail);
        return controller.close();
      }
      const size = Math.min(left, piece.length);
      left -= size;
      controller.enqueue(piece.slice(0, size));
    },
  });
  return server.app.request("/api/uploads", {
    method: "POST",
    body,
    duplex: "half",
    headers: {
      Authorization: `Bearer ${member.token}`,
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
      ...(withLength ? { "Content-Length": String(formHead.length + fileBytes + formTail.length) } : {}),
    },
  } as RequestInit);
}

describe("POST /api/uploads over 10 MB", () => {
  it("Node's fetch gets the 413 and the message: a FormData, then five uploads paced like a network with their Content-Length", async () => {
    const formData = await server.app.request("/api/uploads", { method: "POST", body: uploadForm(), headers: { Authorization: `Bearer ${member.token}` } });
    expect(formData.status).toBe(413);
    expect(await formData.json()).toEqual({ success: false, error: { code: "too_large", message: TOO_LARGE } });
    for (let i = 0; i < 5; i++) {
      const response = await pacedUpload(ELEVEN_MB, { withLength: true });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ success: false, error: { code: "too_large", message: TOO_LARGE } });
    }
  });

  it("streamed without a length (chunked, 40 MB): fetch gets the 413 once the file passes 10 MB, three times in a row", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await pacedUpload(40 * 1024 * 1024, { withLength: false });
      expect(response.status).toBe(413);
      expect((await response.json()).error.message).toBe(TOO_LARGE);
    }
  });

  it("curl -F, paced at 40 MB/s, gets the 413 and the message", async () => {
    const file = path.join(scratch, "big.jpg");
    fs.writeFileSync(file, new Uint8Array(ELEVEN_MB));
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
      execFile(
        "curl",
        [
          ...["-sS", "-w", "\n%{http_code}", "--limit-rate", "40M"],
          ...["-H", `Authorization: Bearer ${member.token}`, "-F", "type=post", "-F", `file=@${file};type=image/jpeg`, `${server.app.url}/api/uploads`],
        ],
        { encoding: "utf8" },
        (error, out, err) => resolve({ stdout: out, stderr: err, code: error ? Number(error.code ?? 1) : 0 }),
      );
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const [body, status] = [stdout.slice(0, stdout.lastIndexOf("\n")), stdout.slice(stdout.lastIndexOf("\n") + 1)];
    expect(status).toBe("413");
    expect(JSON.parse(body).error.message).toBe(TOO_LARGE);
  });

  it("after the 413 the rest of the body is read and dropped, and the same connection serves the next request", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const send = (pathname: string, init: { method: string; headers?: http.OutgoingHttpHeaders; body?: Buffer[] }) =>
        new Promise<{ status: number; body: string; port: number }>((resolve, reject) => {
          const request = http.request(new URL(pathname, server.app.url), { method: init.method, headers: init.headers, agent }, (response) => {
            const port = request.socket!.localPort!;
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (piece) => (body += piece));
            response.on("end", () => resolve({ status: response.statusCode!, body, port }));
          });
          request.on("error", reject);
          for (const piece of init.body ?? []) request.write(piece);
          request.end();
        });
      const file = Buffer.alloc(ELEVEN_MB);
      const refused = await send("/api/uploads", {
        method: "POST",
        headers: {
          Authorization: `Bearer ${member.token}`,
          "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
          "Content-Length": formHead.length + file.length + formTail.length,
        },
        body: [formHead, file, formTail],
      });
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body).error.message).toBe(TOO_LARGE);
      // The agent holds one connection: the next request goes out on it once the upload's last byte is sent.
      expect(await send("/healthz", { method: "GET" })).toMatchObject({ status: 200, port: refused.port });
    } finally {
      agent.destroy();
    }
  });

  it(`a body beyond what is worth reading (${(DISCARD_MAX_BYTES / 1024 / 1024) * 2} MB) still gets its 413 before the connection is closed`, async () => {
    const response = await server.app.request("/api/uploads", {
      method: "POST",
      body: uploadForm(DISCARD_MAX_BYTES * 2),
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toBe(TOO_LARGE);
  });
});

describe("the other limits", () => {
  it("the no-JavaScript post form (/posts/new) answers 413 with the page and the message beside the image field", async () => {
    const browser = await createBrowserMember(server.app, "フォームの人");
    const form = new FormData();
    form.append("content", "大きすぎる画像");
    form.append("image", bigFile());
    const response = await browser.page("/posts/new", { method: "POST", body: form });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain(TOO_LARGE);
  });

  it("the no-JavaScript avatar form (/mypage/avatar) goes back to the page with the message as its toast", async () => {
    const browser = await createBrowserMember(server.app, "アバターの人");
    const form = new FormData();
    form.append("avatar", bigFile());
    const response = await browser.page("/mypage/avatar", { method: "POST", body: form });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/mypage/gamer-edit");
    const page = await browser.page("/mypage/gamer-edit");
    expect(await page.text()).toContain(TOO_LARGE);
  });

  it("the Stripe webhook answers a body far over its 512 KB with 413, not a reset", async () => {
    const response = await server.app.request("/api/webhooks/stripe", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=0" },
      body: JSON.stringify({ padding: "x".repeat(ELEVEN_MB) }),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("too_large");
  });

  it("an anonymous 11 MB upload gets its 401 and its message", async () => {
    const response = await server.app.request("/api/uploads", { method: "POST", body: uploadForm() });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });
});
