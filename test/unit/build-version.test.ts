import { expect, it } from "vitest";
import { fetchLatestBuildId } from "~/lib/build-version";

const answer = (body: unknown, status = 200) => (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

it("reads the running build id", async () => {
  expect(await fetchLatestBuildId(answer({ id: "abc12345" }))).toBe("abc12345");
});

it("cannot tell on an error status, a bad body or a network failure", async () => {
  expect(await fetchLatestBuildId(answer({ id: "abc" }, 503))).toBeNull();
  expect(await fetchLatestBuildId(answer({ nope: true }))).toBeNull();
  expect(
    await fetchLatestBuildId((async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch),
  ).toBeNull();
});
