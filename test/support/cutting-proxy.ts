import net from "node:net";

/**
 * A TCP proxy in front of a test server that can lose an answer on its way back: `cutWhen(text)` drops the next chunk
 * the server sends whose bytes hold `text` (a Socket.IO acknowledgement, an HTTP status line) and cuts that
 * connection, both ways, as a network or a dying load balancer would. The server has done its work by then; only the
 * client is left without the answer. `cutAll()` cuts every connection open now.
 */
export async function startCuttingProxy(target: { host: string; port: number }) {
  const open = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const cuts: Array<{ text: Buffer; resolve: () => void }> = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    open.add(pair);
    const cut = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk: Buffer) => {
      const at = cuts.findIndex((wanted) => chunk.includes(wanted.text));
      if (at >= 0) {
        const [wanted] = cuts.splice(at, 1);
        cut();
        wanted!.resolve();
        return;
      }
      client.write(chunk);
    });
    client.on("error", cut).on("close", cut);
    upstream.on("error", cut).on("close", cut);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Resolves once a chunk holding `text` was dropped and its connection cut. */
    cutWhen(text: string) {
      return new Promise<void>((resolve) => cuts.push({ text: Buffer.from(text), resolve }));
    },
    cutAll() {
      for (const { client, upstream } of [...open]) {
        client.destroy();
        upstream.destroy();
      }
      open.clear();
    },
    close() {
      this.cutAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
