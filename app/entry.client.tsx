import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { reloadOnceOrThrow } from "./lib/chunk-reload";

// A lazily imported chunk outside Remix's route modules failed: the same once-per-path reload.
window.addEventListener("vite:preloadError", (event) => {
  try {
    void reloadOnceOrThrow(event.payload);
    event.preventDefault();
  } catch {
    // Failed again within the window: let Vite rethrow it to the error boundary.
  }
});

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
