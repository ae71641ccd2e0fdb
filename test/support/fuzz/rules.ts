import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TestServer } from "../server";
import { NUL, type Context, type Row, type Sent } from "./generators";
import { credentials, tableChecksumsOf, without } from "./world";

/**
 * The rules every row of the fuzz table is held to (ADR 014, ADR 054), one `describe` per rule and one `it` per row,
 * so a failure names the rule broken and the route that broke it.
 *
 * Seeds: every run replays FIXED_SEEDS (each once found a failure) and a fresh random seed; a failure prints its seed
 * and the command that replays it (`FUZZ_SEED=… [FUZZ_PATH=…] npx vitest run …`), which then runs that seed alone.
 */

/** Generated requests per row and seed; FUZZ_RUNS=200 for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
/** Seeds that once found a failure: -201626545 a 500 from a NUL before a push endpoint (ADR 054). */
export const FIXED_SEEDS = [-201626545];
/** This run's fresh seed, one per file, different every run. */
const FRESH_SEED = (Math.random() * 2 ** 32) | 0;

function seeds(): number[] {
  if (process.env.FUZZ_SEED) return [Number(process.env.FUZZ_SEED)];
  return [...FIXED_SEEDS, FRESH_SEED];
}

/** Each server's prepared checksum query, made once. */
const checksumQueries = new WeakMap<TestServer, Promise<() => Promise<Record<string, string>>>>();
function checksumsOf(app: TestServer) {
  if (!checksumQueries.has(app)) checksumQueries.set(app, tableChecksumsOf(app));
  return async () => (await checksumQueries.get(app)!)();
}

/**
 * The tables before a request, and the check that a refusal left them so. A refusal that passed the check leaves the
 * tables as the next request finds them, so its checksums serve as that request's "before" (one checksum per refused
 * request, not two: the checksums were most of the fuzz files' time); after an answer that may have written, or a
 * failed check, they are read afresh. What changes between two requests on the server's own schedule is left out of
 * the checksums (../checksums.ts), so nothing else can come between.
 */
function unchangedSinceRefusal(checksums: () => Promise<Record<string, string>>) {
  let afterRefusal: Record<string, string> | undefined;
  return {
    async before() {
      const known = afterRefusal;
      afterRefusal = undefined;
      return known ?? (await checksums());
    },
    async unchanged(before: Record<string, string>, refusalWrites: string[] | undefined, message: string) {
      const after = await checksums();
      expect(without(after, refusalWrites), message).toEqual(without(before, refusalWrites));
      afterRefusal = after;
    },
  };
}

const label = (row: Row) => `${row.method} ${row.route}${row.part ? ` ${row.part}` : ""}${row.server ? ` (${row.server})` : ""}`;
const serverOf = (ctx: Context, row: Row): TestServer => (row.server === "stripe" ? ctx.stripeApp : ctx.app);

/**
 * Sends one request. The server's overload guard (ADR 011) may refuse it with 503 before any route sees it when the
 * machine is busy (PGlite shares the event loop): that is not the route's answer, so it is sent again after a pause.
 */
async function send(ctx: Context, row: Row, sent: Sent, signedIn: boolean) {
  for (let attempt = 0; ; attempt++) {
    const response = await serverOf(ctx, row).request(sent.path, { method: sent.method, body: sent.body, headers: { ...credentials(ctx, row, signedIn), ...sent.headers } });
    const body = await response.text();
    if (response.status !== 503 || !body.includes("overloaded") || attempt >= 20) return { status: response.status, body };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** fast-check's failure, with how to replay it. */
function withReplay(error: unknown, seed: number, file: string, row: Row): Error {
  const message = error instanceof Error ? error.message : String(error);
  const replayPath = /path: "([^"]+)"/.exec(message)?.[1];
  const replay = `FUZZ_SEED=${seed}${replayPath ? ` FUZZ_PATH=${replayPath}` : ""} npx vitest run --project integration ${file} -t ${JSON.stringify(label(row))}`;
  return Object.assign(new Error(`${message}\n\nReplay: ${replay}`), { stack: undefined });
}

/** Rule: whatever is sent, signed in or not, the server never answers 5xx, stays healthy, and a 4xx leaves every table as it was. */
export function noInputAnswers500(rows: Row[], world: () => Context, file: string) {
  describe("no input answers 500, and a refusal writes nothing", () => {
    it.each(rows.map((row) => [label(row), row] as const))("%s", async (_, row) => {
      const ctx = world();
      const app = serverOf(ctx, row);
      const tables = unchangedSinceRefusal(checksumsOf(app));
      const signedInMostly = fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
      for (const [index, seed] of seeds().entries()) {
        try {
          await fc.assert(
            fc.asyncProperty(row.request(ctx), signedInMostly, async (sent, signedIn) => {
              const before = await tables.before();
              const { status, body } = await send(ctx, row, sent, signedIn);
              expect(status, `${sent.method} ${sent.path} → ${status} ${body.slice(0, 300)}`).toBeLessThan(500);
              if (status >= 400) await tables.unchanged(before, row.refusalWrites, `${sent.method} ${sent.path} → ${status} changed rows`);
            }),
            {
              seed,
              ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
              numRuns: RUNS,
              endOnFailure: true,
              // The known ways the route once failed, sent signed in, with the first seed.
              examples: index === 0 ? (row.examples?.(ctx) ?? []).map((sent) => [sent, true] as [Sent, boolean]) : [],
            },
          );
        } catch (error) {
          throw withReplay(error, seed, file, row);
        }
      }
      expect((await app.request("/healthz")).status).toBe(200);
    });
  });
}

/** Every way to put `bad` into one string of a request: each JSON string and key, each form entry, each query value, each path segment. */
export function unstorableVariants(sent: Sent, bad: string): Variant[] {
  const variants: Variant[] = [];
  const url = new URL(sent.path, "http://fuzz.invalid");
  // A URL carries NUL only (percent-decoding never yields a lone surrogate).
  if (bad === NUL) {
    const segments = url.pathname.split("/");
    for (let at = 1; at < segments.length; at++) {
      const path = [...segments.slice(0, at), `${segments[at]}%00`, ...segments.slice(at + 1)].join("/");
      variants.push({ ...sent, path: path + url.search, part: "url" });
    }
    for (const name of new Set(url.searchParams.keys())) {
      const query = new URLSearchParams(url.searchParams);
      query.set(name, `${query.get(name)}${bad}`);
      variants.push({ ...sent, path: `${url.pathname}?${query}`, part: "url" });
    }
  }
  const { body } = sent;
  if (typeof body === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return variants;
    }
    for (const [changed, part] of jsonVariants(parsed, bad)) variants.push({ ...sent, body: JSON.stringify(changed), part });
  } else if (body instanceof URLSearchParams) {
    if (bad !== NUL) return variants; // a form body is UTF-8: a lone surrogate arrives as U+FFFD
    const entries = [...body.entries()];
    entries.forEach(([, value], at) => variants.push({ ...sent, body: new URLSearchParams(entries.map(([n, v], i) => [n, i === at ? `${value}${bad}` : v])), part: "value" }));
  } else if (body instanceof FormData) {
    if (bad !== NUL) return variants;
    const entries = [...body.entries()];
    entries.forEach(([, value], at) => {
      if (typeof value !== "string") return;
      const form = new FormData();
      entries.forEach(([n, v], i) => (typeof v === "string" ? form.append(n, i === at ? `${v}${bad}` : v) : form.append(n, v, v.name)));
      variants.push({ ...sent, body: form, part: "value" });
    });
  }
  return variants;
}

/** A request with `bad` in one place: the URL, a value, or a key (a new, unknown field). */
type Variant = Sent & { part: "url" | "value" | "key" };

/**
 * `first` and `second` as one string in which a lone half stays alone: a generated string may end in a high surrogate,
 * and a low one put after it would make one whole character, nothing a reader must refuse (seed 12345 found it).
 */
const joined = (first: string, second: string) => (/[\ud800-\udbff]$/.test(first) && /^[\udc00-\udfff]/.test(second) ? `${first} ${second}` : first + second);

/** Deeper than this a body's strings get no variants: the readers refuse such a body whatever it holds (ADR 054). */
const VARIANT_DEPTH_MAX = 40;

function jsonVariants(value: unknown, bad: string, depth = 0): Array<[unknown, "value" | "key"]> {
  if (typeof value === "string") return [[joined(value, bad), "value"], [joined(bad, value), "value"]];
  // A generated body nests 5,000 arrays deep (seed -77): not walked to the end, which would overflow the stack.
  if (value === null || typeof value !== "object" || depth >= VARIANT_DEPTH_MAX) return [];
  if (Array.isArray(value)) return value.flatMap((item, at) => jsonVariants(item, bad, depth + 1).map(([changed, part]): [unknown, "value" | "key"] => [value.map((old, i) => (i === at ? changed : old)), part]));
  const entries = Object.entries(value);
  return [
    ...entries.flatMap(([key, item]) => jsonVariants(item, bad, depth + 1).map(([changed, part]): [unknown, "value" | "key"] => [{ ...value, [key]: changed }, part])),
    ...(entries.length ? [[{ ...value, [joined(entries[0]![0], bad)]: entries[0]![1] }, "key"] as [unknown, "key"]] : []),
  ];
}

/** Generated requests per row and seed that the unstorable rule puts bad text into, each in every place it can go. */
const UNSTORABLE_SAMPLES = 1;

/** Why a row of a route that takes no body is lenient: whatever body comes is never read, so nothing of it is stored. */
export const TAKES_NO_BODY = "takes no body: whatever is sent is never read, so nothing of it is stored";

/**
 * Rule: a NUL or a lone surrogate in any string of a request (a JSON field or key at any depth, a form entry, a query
 * value, a path segment) is a 4xx and writes nothing, whatever the route's own schema says: the request readers and
 * the host's URL check refuse it before a route reads it (ADR 054; the auth server's reader too). Requests are generated
 * from the row, signed in, UNSTORABLE_SAMPLES from each seed (the fixed ones and this run's fresh one).
 * `lenient` names rows that answer every body alike by design (with why): for them, never a 5xx and nothing stored.
 */
export function unstorableTextIsRefused(rows: Row[], world: () => Context, file: string, { lenient = {} }: { lenient?: Record<string, string> } = {}) {
  // The refusal comes before any query, so the engine cannot change it: `npm test`'s second engine's pass (PGlite after
  // PostgreSQL, ADR 059) leaves this rule to the first.
  describe.skipIf(process.env.TEST_SECOND_ENGINE_PASS === "1")("a NUL or a lone surrogate in any string, query or path answers 4xx and writes nothing", () => {
    it.each(rows.map((row) => [label(row), row] as const))("%s", async (_, row) => {
      const ctx = world();
      const app = serverOf(ctx, row);
      const tables = unchangedSinceRefusal(checksumsOf(app));
      let tried = 0;
      let samples = 0;
      for (const seed of seeds()) {
        try {
          for (const sample of fc.sample(row.request(ctx), { seed, numRuns: UNSTORABLE_SAMPLES })) {
            samples++;
            for (const bad of [NUL, "\ud800", "\udfff"]) {
              for (const sent of unstorableVariants(sample, bad)) {
                const before = await tables.before();
                const { status, body } = await send(ctx, row, sent, true);
                const where = `${sent.method} ${sent.path} ${typeof sent.body === "string" ? sent.body.slice(0, 200) : ""} → ${status} ${body.slice(0, 200)}`;
                // A lenient row says why it answers as it does.
                const ignored = label(row) in lenient && sent.part !== "url";
                if (ignored) expect(status, where).toBeLessThan(500);
                else expect(status >= 400 && status < 500, where).toBe(true);
                if (status >= 400) await tables.unchanged(before, row.refusalWrites, `${where}: changed rows`);
                tried++;
              }
            }
          }
        } catch (error) {
          throw withReplay(error, seed, file, row);
        }
      }
      expect(tried + samples).toBeGreaterThan(0);
    });
  });
}
