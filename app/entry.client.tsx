import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { reloadOnceOrThrow } from "./lib/chunk-reload";
import { registerServiceWorker } from "./lib/register-service-worker";

// A lazily imported chunk outside Remix's route modules failed: the same once-per-path reload.
window.addEventListener("vite:preloadError", (event) => {
  try {
    void reloadOnceOrThrow(event.payload);
    event.preventDefault();
  } catch {
    // Failed again within the window: let Vite rethrow it to the error boundary.
  }
});

const hydrate = () =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
// The route modules ran first: one that shows 「通報する」 or 「運営により非表示」 started loading them (moderation-slots.tsx).
const marks = (window as { gmMarks?: Promise<unknown> }).gmMarks;
if (marks) marks.then(hydrate, hydrate);
else hydrate();

// After the load event: pushes, and the offline page (ADR 053).
registerServiceWorker();
