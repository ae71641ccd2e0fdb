import { SERVICE_WORKER_PATH } from "./constants/installed-app";

/**
 * Registers the service worker (app/entry.worker.ts, ADR 053) once the page has loaded, so that neither its script nor
 * the shell it caches competes with the page's own first load.
 */
export function registerServiceWorker() {
  const container = navigator.serviceWorker;
  if (!container) return;
  const register = () => {
    container.register(SERVICE_WORKER_PATH, { scope: "/" }).catch((error: unknown) => console.warn("service worker: not registered", error));
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
