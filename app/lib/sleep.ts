/** Resolves after `ms`. setTimeout is looked up at call time, so fake timers installed later still apply. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
