/** Pauses between tries of the fetch after a reconnect: 1, 2, 4, 8 and 16 s; then the next reconnect tries again. */
export const CATCH_UP_PAUSES_MS = [1_000, 2_000, 4_000, 8_000, 16_000] as const;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Fetches what a reconnect may have missed until the server answers (docs/product.md#realtime): an event sent while
 * the socket was away is only a hint, the server is the truth, and a fetch refused while the server is busy (503) or
 * lost with the network must not leave a gap on screen until some later reconnect. Tries again after each pause of
 * `pauses`; stops when `signal` aborts (the room left, a newer reconnect). Answers what the fetch answered, or
 * undefined when every try failed or it was stopped.
 */
export async function untilAnswered<T>(
  fetch: () => Promise<T>,
  { signal, sleep = defaultSleep, pauses = CATCH_UP_PAUSES_MS }: { signal?: AbortSignal; sleep?: (ms: number) => Promise<void>; pauses?: readonly number[] } = {},
): Promise<T | undefined> {
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) return undefined;
    try {
      return await fetch();
    } catch {
      const pause = pauses[attempt];
      if (pause === undefined) return undefined;
      await sleep(pause);
    }
  }
}
