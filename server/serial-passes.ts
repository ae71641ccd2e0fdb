/**
 * One pass at a time over an outbox (mail, push): a call while a pass runs gets that pass's promise and asks for one
 * more after it, since what woke it may have been written after the running pass looked; after `close()` no pass
 * starts and the one under way is awaited. A pass that throws (the database went away) is reported and counts what it
 * had done; the next wake-up or sweep tries again.
 */
export function serialPasses(pass: () => Promise<number>, onError: (error: unknown) => void) {
  let running: Promise<number> | undefined;
  let again = false;
  let closed = false;
  const run = (): Promise<number> => {
    if (closed) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let done = 0;
      try {
        do {
          again = false;
          done += await pass();
        } while (again && !closed);
        return done;
      } catch (error) {
        onError(error);
        return done;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  return {
    run,
    async close() {
      closed = true;
      await running;
    },
  };
}
