import { useLocation } from "@remix-run/react";
import type { SupabaseClient } from "@supabase/supabase-js";
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ApiError, createApiClient } from "~/lib/api-client";
import {
  applyAuthEvent,
  applyProfileCheck,
  initialAuthState,
  type AuthEvent,
  type AuthState,
  type ProfileCheck,
  type SessionLike,
} from "~/lib/auth-state";
import { messages } from "~/lib/messages";

interface AuthContextValue extends AuthState {
  api: ReturnType<typeof createApiClient>;
}

// Outside the provider (the root error page's header) everything reads as signed out.
const AuthContext = createContext<AuthContextValue>({
  status: "signedOut",
  session: null,
  claims: null,
  api: createApiClient({ getAccessToken: () => null }),
});

/** What the server found while rendering the page: who is signed in and whether their profile exists. */
export interface ServerViewer {
  id: string;
  hasProfile: boolean;
}

/**
 * The me call, read as a profile check: 404 means no profile yet, 401/403 a session the server refuses.
 * When the page's own loader already found this user without a profile, that is the answer: the call would
 * only repeat it as a 404, which the browser logs as a failed resource on every page until setup is done.
 */
async function checkProfile(
  api: ReturnType<typeof createApiClient>,
  userId: string | undefined,
  server: ServerViewer | null,
): Promise<ProfileCheck> {
  if (server && !server.hasProfile && server.id === userId) return "missing";
  try {
    await api.get("/api/auth/me");
    return "found";
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return "missing";
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return "unauthorized";
    return "failed";
  }
}

/** The browser's auth state and the API client bound to its session. */
export function useAuth() {
  return useContext(AuthContext);
}

/**
 * Keeps the auth state of SPEC §4 in the browser. supabase-js is loaded after hydration, so the
 * first paint does not wait for it: it reads the session from the cookies @supabase/ssr wrote,
 * refreshes it before it expires, and reports every auth event.
 */
export function AuthProvider({
  config,
  viewer = null,
  children,
}: {
  config: { supabaseUrl: string; anonKey: string };
  /** The root loader's viewer: read at each check, so a profile saved by a form counts once the loader reran. */
  viewer?: ServerViewer | null;
  children: ReactNode;
}) {
  const [state, setState] = useState<AuthState>(initialAuthState);
  const serverViewer = useRef(viewer);
  serverViewer.current = viewer;
  const client = useRef<SupabaseClient | null>(null);
  const session = useRef<SessionLike | null>(null);
  session.current = state.session;
  const status = useRef(state.status);
  status.current = state.status;
  const api = useMemo(() => createApiClient({ getAccessToken: () => session.current?.access_token }), []);

  useEffect(() => {
    let cancelled = false;
    let unsubscribe: (() => void) | undefined;

    const onEvent = (event: AuthEvent, next: SessionLike | null) => {
      if (cancelled) return;
      setState((current) => applyAuthEvent(current, event, next));
      session.current = next;
      // Not inside supabase-js's callback: it must not await other work of the client.
      if (next && event !== "SIGNED_OUT") {
        setTimeout(() => void checkProfile(api, next.user.id, serverViewer.current).then((check) => !cancelled && setState((current) => applyProfileCheck(current, check))));
      }
    };

    import("@supabase/ssr")
      .then(({ createBrowserClient }) => {
        if (cancelled) return;
        const supabase = createBrowserClient(config.supabaseUrl, config.anonKey);
        client.current = supabase;
        unsubscribe = supabase.auth.onAuthStateChange((event, next) => onEvent(event as AuthEvent, next)).data.subscription.unsubscribe;
      })
      .catch(() => !cancelled && setState((current) => applyAuthEvent(current, "SIGNED_OUT", null)));

    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [api, config.supabaseUrl, config.anonKey]);

  // After a client-side navigation, re-read the session: a form may have signed in or out on the server.
  const { key } = useLocation();
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const supabase = client.current;
    if (!supabase) return;
    supabase.auth
      .getSession()
      .then(({ data }) => {
        const current = session.current;
        const changed = data.session?.access_token !== current?.access_token;
        if (changed) {
          const event: AuthEvent = data.session ? (current ? "TOKEN_REFRESHED" : "SIGNED_IN") : "SIGNED_OUT";
          setState((previous) => applyAuthEvent(previous, event, data.session));
          session.current = data.session;
        }
        // A new session, or one still without a profile (the page may just have saved it): ask again.
        if (data.session && (changed || status.current === "needsProfileSetup")) {
          void checkProfile(api, data.session.user.id, serverViewer.current).then((check) => setState((previous) => applyProfileCheck(previous, check)));
        }
      })
      .catch(() => {});
  }, [key, api]);

  return (
    <AuthContext.Provider value={{ ...state, api }}>
      <div data-auth-status={state.status} className="contents">
        {state.status === "invalid" ? (
          <p role="alert" className="bg-amber-50 px-4 py-2 text-center text-sm text-amber-900">
            {messages.auth.invalidSession}
          </p>
        ) : null}
        {children}
      </div>
    </AuthContext.Provider>
  );
}
