import { describe, expect, it } from "vitest";
import { CHAT_CATCH_UP_PAUSES_MS } from "~/lib/constants/chat";
import { untilAnswered } from "~/routes/_chat.chat.$roomId/catch-up";

describe("the fetch after a reconnect", () => {
  it("is tried again after each refusal, with growing pauses, until the server answers", async () => {
    const pauses: number[] = [];
    let tries = 0;
    const answer = await untilAnswered(
      async () => {
        tries++;
        if (tries < 4) throw new Error("503");
        return "messages";
      },
      { sleep: async (ms) => void pauses.push(ms) },
    );
    expect(answer).toBe("messages");
    expect(tries).toBe(4);
    expect(pauses).toEqual(CHAT_CATCH_UP_PAUSES_MS.slice(0, 3));
  });

  it("gives up after the last pause, leaving it to the next reconnect", async () => {
    let tries = 0;
    const answer = await untilAnswered(
      async () => {
        tries++;
        throw new Error("offline");
      },
      { sleep: async () => {} },
    );
    expect(answer).toBeUndefined();
    expect(tries).toBe(CHAT_CATCH_UP_PAUSES_MS.length + 1);
  });

  it("stops once the room is left or a newer reconnect takes over", async () => {
    const controller = new AbortController();
    let tries = 0;
    const answer = await untilAnswered(
      async () => {
        tries++;
        throw new Error("503");
      },
      { signal: controller.signal, sleep: async () => controller.abort() },
    );
    expect(answer).toBeUndefined();
    expect(tries).toBe(1);
  });
});
