import { HEARTBEAT_INTERVAL_MS } from "./constants";

/** What the heartbeat needs of `document`: whether the tab is visible, and word when that changes. */
export interface VisibilitySource {
  readonly visibilityState: DocumentVisibilityState;
  addEventListener(type: "visibilitychange", listener: () => void): void;
  removeEventListener(type: "visibilitychange", listener: () => void): void;
}

/**
 * The presence heartbeat (docs/product.md#states, #constants): `beat` at once and then every 60 s while the tab is visible;
 * nothing while it is hidden; at once again when it becomes visible. Start it only while signed in and
 * call the returned function on sign-out. A failed beat is swallowed: the next one tries again.
 */
export function startHeartbeat({
  beat,
  visibility,
  intervalMs = HEARTBEAT_INTERVAL_MS,
}: {
  beat: () => Promise<unknown> | void;
  visibility: VisibilitySource;
  intervalMs?: number;
}): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  const send = () => {
    void Promise.resolve()
      .then(beat)
      .catch(() => undefined);
  };
  const resume = () => {
    if (timer !== undefined) return;
    send();
    timer = setInterval(send, intervalMs);
  };
  const pause = () => {
    clearInterval(timer);
    timer = undefined;
  };
  const onChange = () => (visibility.visibilityState === "visible" ? resume() : pause());
  visibility.addEventListener("visibilitychange", onChange);
  onChange();
  return () => {
    pause();
    visibility.removeEventListener("visibilitychange", onChange);
  };
}

/** The heartbeat of one tab, switched by the auth state: it runs only while signed in (docs/product.md#states). */
export function createHeartbeat(options: Parameters<typeof startHeartbeat>[0]) {
  let stop: (() => void) | undefined;
  return {
    setSignedIn(signedIn: boolean) {
      if (signedIn && !stop) stop = startHeartbeat(options);
      if (!signedIn && stop) {
        stop();
        stop = undefined;
      }
    },
  };
}
