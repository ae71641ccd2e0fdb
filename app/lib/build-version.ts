import { useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { BUILD_CHECK_INTERVAL_MS } from "./constants/site";

/** Asks the server which build it runs (server/app.ts `/builds/latest`). Null when it cannot tell. */
export async function fetchLatestBuildId(fetcher: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await fetcher("/builds/latest", { cache: "no-store", headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    const body = (await response.json()) as { id?: unknown };
    return typeof body.id === "string" ? body.id : null;
  } catch {
    return null;
  }
}

/**
 * Notices a new deployment (docs/product.md#screens, #api): checks on an interval and whenever the tab regains focus;
 * once the server runs another build, the next navigation is a full page load, so the tab picks up
 * the new build instead of asking the server for chunks it no longer has.
 */
export function useBuildVersionCheck() {
  const stale = useRef(false);
  const navigation = useNavigation();

  useEffect(() => {
    const running = window.__remixManifest?.version;
    if (!running) return;
    let inFlight = false;
    const check = async () => {
      if (stale.current || inFlight || document.visibilityState === "hidden") return;
      inFlight = true;
      const latest = await fetchLatestBuildId();
      inFlight = false;
      if (latest && latest !== running) stale.current = true;
    };
    const timer = window.setInterval(check, BUILD_CHECK_INTERVAL_MS);
    const onVisible = () => document.visibilityState === "visible" && void check();
    window.addEventListener("focus", check);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("focus", check);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);

  useEffect(() => {
    // Page loads only: a form submission keeps its POST and comes back to a page, which then reloads.
    if (stale.current && navigation.state === "loading" && navigation.formMethod === undefined) {
      const { pathname, search, hash } = navigation.location;
      window.location.assign(pathname + search + hash);
    }
  }, [navigation]);
}
