import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_INTERVAL_MS } from "~/lib/constants";
import { createHeartbeat, startHeartbeat, type VisibilitySource } from "~/lib/heartbeat";

/** A tab whose visibility the test flips, like `document` does. */
class FakeTab extends EventTarget implements VisibilitySource {
  visibilityState: DocumentVisibilityState = "visible";
  set(state: DocumentVisibilityState) {
    this.visibilityState = state;
    this.dispatchEvent(new Event("visibilitychange"));
  }
}

/** Lets the beat's promise chain run (it is called from a microtask). */
const flush = () => vi.advanceTimersByTimeAsync(0);

describe("presence heartbeat", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("beats at once and then every 60 s while the tab is visible", async () => {
    const beat = vi.fn();
    const stop = startHeartbeat({ beat, visibility: new FakeTab() });
    await flush();
    expect(beat).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS - 1);
    expect(beat).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(beat).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3 * HEARTBEAT_INTERVAL_MS);
    expect(beat).toHaveBeenCalledTimes(5);
    stop();
  });

  it("stays silent while hidden and beats at once when the tab is visible again", async () => {
    const tab = new FakeTab();
    const beat = vi.fn();
    const stop = startHeartbeat({ beat, visibility: tab });
    await flush();
    expect(beat).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(30_000);
    tab.set("hidden");
    await vi.advanceTimersByTimeAsync(10 * HEARTBEAT_INTERVAL_MS);
    expect(beat).toHaveBeenCalledTimes(1);

    tab.set("visible");
    await flush();
    expect(beat).toHaveBeenCalledTimes(2);
    // The cadence restarts from the moment the tab came back.
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    expect(beat).toHaveBeenCalledTimes(3);
    stop();
  });

  it("does not beat when it starts in a hidden tab", async () => {
    const tab = new FakeTab();
    tab.visibilityState = "hidden";
    const beat = vi.fn();
    const stop = startHeartbeat({ beat, visibility: tab });
    await vi.advanceTimersByTimeAsync(5 * HEARTBEAT_INTERVAL_MS);
    expect(beat).not.toHaveBeenCalled();
    tab.set("visible");
    await flush();
    expect(beat).toHaveBeenCalledTimes(1);
    stop();
  });

  it("stops for good when signed out (the returned stop), even if the tab flips again", async () => {
    const tab = new FakeTab();
    const beat = vi.fn();
    const stop = startHeartbeat({ beat, visibility: tab });
    await flush();
    stop();
    await vi.advanceTimersByTimeAsync(5 * HEARTBEAT_INTERVAL_MS);
    tab.set("hidden");
    tab.set("visible");
    await vi.advanceTimersByTimeAsync(5 * HEARTBEAT_INTERVAL_MS);
    expect(beat).toHaveBeenCalledTimes(1);
  });

  it("swallows a failed beat and keeps beating", async () => {
    const beat = vi.fn().mockRejectedValueOnce(new Error("network down")).mockResolvedValue(undefined);
    const stop = startHeartbeat({ beat, visibility: new FakeTab() });
    await flush();
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    expect(beat).toHaveBeenCalledTimes(2);
    stop();
  });

  it("runs only while signed in: nothing before sign-in, 60 s cadence after it, nothing after sign-out", async () => {
    const tab = new FakeTab();
    const beat = vi.fn();
    const heartbeat = createHeartbeat({ beat, visibility: tab });
    heartbeat.setSignedIn(false);
    await vi.advanceTimersByTimeAsync(3 * HEARTBEAT_INTERVAL_MS);
    expect(beat).not.toHaveBeenCalled();

    heartbeat.setSignedIn(true);
    await flush();
    expect(beat).toHaveBeenCalledTimes(1);
    // Signed in again (a token refresh) does not start a second heartbeat.
    heartbeat.setSignedIn(true);
    await vi.advanceTimersByTimeAsync(2 * HEARTBEAT_INTERVAL_MS);
    expect(beat).toHaveBeenCalledTimes(3);

    heartbeat.setSignedIn(false);
    tab.set("hidden");
    tab.set("visible");
    await vi.advanceTimersByTimeAsync(3 * HEARTBEAT_INTERVAL_MS);
    expect(beat).toHaveBeenCalledTimes(3);
  });
});
