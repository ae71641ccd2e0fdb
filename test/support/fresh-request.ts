import http from "node:http";

/**
 * A GET on a connection of its own, closed after the answer. For a server that is shutting down: it closes kept-alive
 * connections, and fetch could pick one from its pool just as the server closes it ("other side closed").
 */
export function freshGet(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; json<T = unknown>(): T }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { Connection: "close" } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body) }));
      })
      .on("error", reject);
  });
}
