import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Supabase Storage on 127.0.0.1: a real HTTP server answering the few Storage API calls supabase-js
 * makes for the app (ADR 066, 069, 070), with objects kept in memory.
 *
 * - `POST|PUT /storage/v1/object/{bucket}/{path}`: stores the body with its content type (`{ Id, Key }`).
 * - `GET /storage/v1/object/public/{bucket}/{path}`: a public read; the bucket's policy (as the app's docs ask for)
 *   leaves `private/` out of it: 400 `not_found`, like Supabase's answer to an object a policy hides.
 * - `POST /storage/v1/object/sign/{bucket}/{path}` `{ expiresIn }`: `{ signedURL: "/object/sign/…?token=…" }`, a
 *   token (HMAC-signed, like Supabase's JWT) naming the object and its expiry.
 * - `GET /storage/v1/object/sign/{bucket}/{path}?token=…`: the object while the token is valid for that object; a
 *   token for another object, forged or expired: 400 `InvalidJWT`.
 * - `DELETE /storage/v1/object/{bucket}` `{ prefixes }`: removes those objects, answers the removed ones.
 *
 * Requests must carry the key the stand-in was started with (`Authorization: Bearer` and `apikey`), except the public
 * and the signed reads. Its clock can be moved forward (`advance`) to see a signed URL expire.
 */
export async function startSupabaseStorageServer({ bucket, serviceKey }: { bucket: string; serviceKey: string }) {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const secret = randomBytes(32);
  let offsetMs = 0;
  const nowSeconds = () => Math.floor((Date.now() + offsetMs) / 1000);
  const requests: Array<{ method: string; path: string }> = [];

  const sign = (payload: string) => createHmac("sha256", secret).update(payload).digest("base64url");
  const tokenFor = (objectPath: string, expiresIn: number) => {
    const payload = Buffer.from(JSON.stringify({ url: objectPath, exp: nowSeconds() + expiresIn })).toString("base64url");
    return `${payload}.${sign(payload)}`;
  };
  const checkToken = (token: string, objectPath: string) => {
    const [payload = "", signature = ""] = token.split(".");
    const expected = Buffer.from(sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid signature";
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { url: string; exp: number };
    if (claims.url !== objectPath) return "wrong object";
    if (claims.exp <= nowSeconds()) return "jwt expired";
    return null;
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  const authorised = (req: http.IncomingMessage) => req.headers.authorization === `Bearer ${serviceKey}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const pathname = decodeURIComponent(url.pathname);
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? "", path: pathname });
      const route = /^\/storage\/v1\/object\/(?:(public|sign)\/)?([^/]+)(?:\/(.+))?$/.exec(pathname);
      if (!route || route[2] !== bucket) return json(res, 400, { statusCode: "404", error: "Bucket not found", message: "Bucket not found" });
      const [, mode, , objectPath] = route;
      const objectKey = `${bucket}/${objectPath ?? ""}`;
      const notFound = () => json(res, 400, { statusCode: "404", error: "not_found", message: "Object not found" });

      if (mode === "public" && req.method === "GET") {
        const object = objectPath && !objectPath.startsWith("private/") ? objects.get(objectKey) : undefined;
        if (!object) return notFound();
        return res.writeHead(200, { "Content-Type": object.contentType }).end(object.body);
      }
      if (mode === "sign" && req.method === "GET") {
        const problem = checkToken(url.searchParams.get("token") ?? "", objectKey);
        if (problem) return json(res, 400, { statusCode: "400", error: "InvalidJWT", message: problem });
        const object = objects.get(objectKey);
        if (!object) return notFound();
        return res.writeHead(200, { "Content-Type": object.contentType }).end(object.body);
      }
      if (!authorised(req)) return json(res, 400, { statusCode: "403", error: "Unauthorized", message: "Invalid key" });
      if (mode === "sign" && req.method === "POST" && objectPath) {
        if (!objects.has(objectKey)) return notFound();
        const { expiresIn } = JSON.parse(body.toString("utf8")) as { expiresIn: number };
        return json(res, 200, { signedURL: `/object/sign/${objectKey}?token=${tokenFor(objectKey, expiresIn)}` });
      }
      if (!mode && (req.method === "POST" || req.method === "PUT") && objectPath) {
        objects.set(objectKey, { body, contentType: req.headers["content-type"] ?? "application/octet-stream" });
        return json(res, 200, { Id: randomBytes(8).toString("hex"), Key: objectKey });
      }
      if (!mode && req.method === "DELETE" && !objectPath) {
        const { prefixes } = JSON.parse(body.toString("utf8")) as { prefixes: string[] };
        const removed = prefixes.filter((prefix) => objects.delete(`${bucket}/${prefix}`));
        return json(res, 200, removed.map((name) => ({ name, bucket_id: bucket })));
      }
      return json(res, 400, { statusCode: "405", error: "invalid_request", message: "Not supported by the stand-in" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The app's settings for this stand-in. */
    settings: { SUPABASE_URL: url, SUPABASE_ANON_KEY: "anon-key-of-the-stand-in", SUPABASE_SERVICE_ROLE_KEY: serviceKey, SUPABASE_STORAGE_BUCKET: bucket },
    /** The objects' paths in the bucket. */
    paths: () => [...objects.keys()].map((key) => key.slice(bucket.length + 1)).sort(),
    requests,
    /** Moves the stand-in's clock forward (signed URLs expire by it). */
    advance: (ms: number) => void (offsetMs += ms),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
