import { useRouteLoaderData } from "@remix-run/react";
import type { Toast } from "~/lib/toast";

/** Who is signed in, as the root loader says: the header's counts and the socket's token. */
export interface Viewer {
  id: string;
  accessToken: string;
  hasProfile: boolean;
  displayName: string | null;
  unreadNotifications: number;
  coinBalance: number;
}

/**
 * What the root loader (app/root.tsx) answers on every navigation. Declared here, on the components' floor, so that
 * the chrome and the pages read it without importing the root route (an import that would climb a floor).
 */
export interface RootData {
  viewer: Viewer | null;
  auth: { discord: boolean };
  /** The toast a form action flashed before redirecting here. */
  toast: Toast | null;
}

/** The root loader's data; undefined when the root loader itself failed (the error page). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}
