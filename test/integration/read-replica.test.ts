import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READ_REPLICA } from "~/lib/constants";
import { createMember, type Member } from "../support/auth";
import { ownServersProblem, startPrimaryAndReplica, type PrimaryAndReplica } from "../support/postgres-servers";
import { startTestServer, type TestServer } from "../support/server";

/**
 * DATABASE_READ_URL (ADR 040): the heavy public reads go to a streaming replica, a gamer's own reads after
 * a write go to the primary, and a replica that lags too far or is down costs nobody an error. Against a primary and
 * replica of the test's own (initdb and pg_basebackup in a temporary directory); the machine's server is untouched.
 * Run in the PostgreSQL pass only: the PGlite pass has no PostgreSQL of its own to copy.
 */
const skipReason = !process.env.TEST_DATABASE_URL ? "the PostgreSQL pass runs it (TEST_DATABASE_URL is not set)" : ownServersProblem();
if (skipReason) console.log(`[read-replica] skipped: ${skipReason}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** The `gm_wrote=…` pair a write's response set, as a Cookie header's part. */
function wroteCookie(response: Response) {
  const pair = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .find((cookie) => cookie.startsWith(`${READ_REPLICA.wroteCookie}=`));
  if (!pair) throw new Error(`the write's response set no ${READ_REPLICA.wroteCookie} cookie`);
  return pair;
}

describe.skipIf(skipReason)("a read replica (DATABASE_READ_URL)", () => {
  let servers: PrimaryAndReplica;
  let app: TestServer;
  let author: Member;

  beforeAll(async () => {
    servers = await startPrimaryAndReplica();
    app = await startTestServer({
      databaseAdminUrl: servers.primaryUrl,
      readReplicaUrl: servers.replicaUrl,
    });
    author = await createMember(app, "レプリカの投稿者");
    await until("the replica has the author", () => servers.caughtUp());
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await servers?.close();
  });

  /** A post by the author (or another member: posting has a rate limit), and the cookie its response set. */
  const post = async (content: string, by: Member = author) => {
    const response = await by.api("/api/posts/create", {
      json: { content, imageUrl: null, isPublic: true },
    });
    expect(response.status).toBe(201);
    return wroteCookie(response);
  };
  /**
   * Whether this text is in the author's posts as the API answers them, and on their profile's page. The two must agree
   * while the replica stands still (paused, caught up, or not in use); while it catches up, the second request may see
   * what the first did not, so `settling` answers whether both saw it.
   */
  const seen = async (content: string, headers: Record<string, string> = {}, by: Member = author, { settling = false } = {}) => {
    const api = await app.request(`/api/posts?authorId=${by.id}`, { headers });
    expect(api.status).toBe(200);
    const inApi = JSON.stringify(await api.json()).includes(content);
    const page = await app.request(`/u/${by.id}/posts`, { headers });
    expect(page.status).toBe(200);
    const onPage = (await page.text()).includes(content);
    if (settling) return inApi && onPage;
    expect(onPage, `${content}: the API and the page agree`).toBe(inApi);
    return inApi;
  };

  it("sends public reads to the replica, and the author's own reads after their write to the primary", async () => {
    await servers.pauseReplay();
    try {
      const cookie = await post("リプレイ停止中の投稿");
      // The author, with the cookie of their write: at once, on their profile and in the API, both from the primary.
      expect(
        await seen("リプレイ停止中の投稿", {
          Cookie: cookie,
          Authorization: `Bearer ${author.token}`,
        })
      ).toBe(true);
      expect(await seen("リプレイ停止中の投稿", { Cookie: cookie })).toBe(true);
      // Anyone else reads the replica, which has not applied the post yet.
      expect(await seen("リプレイ停止中の投稿")).toBe(false);
    } finally {
      await servers.resumeReplay();
    }
    // Once it catches up, everyone sees it.
    await until("others see the post", () => seen("リプレイ停止中の投稿", {}, author, { settling: true }));
  });

  it("a cookie older than what the replica holds reads the replica again", async () => {
    const cookie = await post("追いついた後の投稿");
    await until("the replica caught up", () => servers.caughtUp());
    // The monitor notices within a poll or two; then the author's reads may go to the replica, which has the post.
    await sleep(READ_REPLICA.pollMs * 3);
    await servers.pauseReplay();
    try {
      const other = await author.api("/api/posts/create", {
        json: {
          content: "別の人には見えない投稿",
          imageUrl: null,
          isPublic: true,
        },
      });
      expect(other.status).toBe(201);
      // The old cookie (before this second post) is satisfied by the replica: it shows the first post, not the second.
      expect(await seen("追いついた後の投稿", { Cookie: cookie })).toBe(true);
      expect(await seen("別の人には見えない投稿", { Cookie: cookie })).toBe(false);
      // The second write's own cookie reads the primary.
      expect(await seen("別の人には見えない投稿", { Cookie: wroteCookie(other) })).toBe(true);
    } finally {
      await servers.resumeReplay();
    }
  });

  it("a replica further behind than the bound serves nobody: everyone reads the primary", async () => {
    await servers.pauseReplay();
    try {
      await post("遅れすぎたレプリカの投稿");
      expect(await seen("遅れすぎたレプリカの投稿")).toBe(false);
      // Past READ_REPLICA.maxLagMs behind, the replica is left out until it catches up.
      await sleep(READ_REPLICA.maxLagMs + READ_REPLICA.pollMs * 3);
      expect(await seen("遅れすぎたレプリカの投稿")).toBe(true);
    } finally {
      await servers.resumeReplay();
    }
  }, 30_000);

  it("a replica that is down: every read answered by the primary, no error; back in use once it returns", async () => {
    const second = await createMember(app, "二人目の投稿者");
    await until("the replica has the second author", () => servers.caughtUp());
    await servers.stopReplica();
    try {
      const content = "レプリカ停止中の投稿";
      await post(content, second);
      // At once, before the monitor's next poll: the query that finds the replica gone runs on the primary.
      for (const pathname of [
        "/",
        "/explore",
        "/feed",
        "/games",
        `/u/${second.id}`,
        `/u/${second.id}/posts`,
        `/u/${second.id}/gallery`,
        "/api/listings",
        "/api/posts",
      ]) {
        const response = await app.request(pathname);
        expect(response.status, pathname).toBe(200);
      }
      expect(await seen(content, {}, second)).toBe(true);
    } finally {
      await servers.startReplica();
    }
    // Back: public reads use the replica again (a paused replay shows it).
    await until("the replica caught up", () => servers.caughtUp());
    await sleep(READ_REPLICA.pollMs * 5);
    await servers.pauseReplay();
    try {
      await post("復帰後の投稿", second);
      expect(await seen("復帰後の投稿", {}, second)).toBe(false);
    } finally {
      await servers.resumeReplay();
    }
  }, 60_000);
});
