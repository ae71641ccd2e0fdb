import { CHAT_CATCH_UP_PAUSES_MS } from "~/lib/constants/chat";
import { sleep as defaultSleep } from "~/lib/sleep";

/**
 * Fetches what a reconnect may have missed until the server answers (docs/product.md#realtime): an event sent while
 * the socket was away is only a hint, the server is the truth, and a fetch refused while the server is busy (503) or
 * lost with the network must not leave a gap on screen until some later reconnect. Tries again after each pause of
 * `pauses`; stops when `signal` aborts (the room left, a newer reconnect). Answers what the fetch answered, or
 * undefined when every try failed or it was stopped.
 */
export async function untilAnswered<T>(
  fetch: () => Promise<T>,
  { signal, sleep = defaultSleep, pauses = CHAT_CATCH_UP_PAUSES_MS }: { signal?: AbortSignal; sleep?: (ms: number) => Promise<void>; pauses?: readonly number[] } = {},
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
