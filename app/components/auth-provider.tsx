import { useRevalidator } from "@remix-run/react";
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { ApiClient } from "~/lib/api-client";
import { createLazyApiClient } from "~/lib/lazy-api-client";
import { applyProfileCheck, applyServerSession, initialAuthState, type AuthState, type ServerSession } from "~/lib/auth-state";
import { invalidSession } from "~/lib/messages/error";

interface AuthContextValue extends AuthState {
  api: ApiClient;
  /** Marks the session the server handed out as refused (the socket's token was turned down and no new one came). */
  markInvalid(): void;
}

// Outside the provider (the root error page's header) everything reads as signed out, and no call is made.
const AuthContext = createContext<AuthContextValue>({
  status: "signedOut",
  session: null,
  claims: null,
  api: createLazyApiClient({ hasSession: () => false }),
  markInvalid() {},
});

/** The browser's auth state and the API client bound to its session. */
export function useAuth() {
  return useContext(AuthContext);
}

/** Tabs of one browser share the session cookies: a tab that sees the session change tells the others to look again. */
const AUTH_CHANNEL = "gamermatch:auth";

/**
 * Keeps the auth state of docs/product.md#states in the browser from what the server read in the session cookies (the root loader,
 * which runs again on every navigation, so the claims are refreshed after each route change). The browser needs no
 * auth client of its own: the server refreshes an expiring session on any request, and sign-in and sign-out are forms.
 */
export function AuthProvider({ session, children }: { session: ServerSession | null; children: ReactNode }) {
  const [state, setState] = useState<AuthState>(() => applyServerSession(initialAuthState, session));
  const revalidator = useRevalidator();
  const { userId, accessToken, hasProfile } = session ?? {};
  const signedIn = useRef(false);
  signedIn.current = state.session !== null;
  // Same-origin calls carry the session cookies; the server reads and refreshes the session from them (@supabase/ssr).
  const api = useMemo(() => createLazyApiClient({ hasSession: () => signedIn.current }), []);

  useEffect(() => {
    setState((current) => applyServerSession(current, userId && accessToken ? { userId, accessToken, hasProfile: !!hasProfile } : null));
  }, [userId, accessToken, hasProfile]);

  // Another tab signed in or out: read the session again. This tab's own change is news for the others.
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(AUTH_CHANNEL);
    channel.onmessage = (event: MessageEvent<string | null>) => {
      if (event.data !== (userId ?? null)) revalidator.revalidate();
    };
    channel.postMessage(userId ?? null);
    return () => channel.close();
    // The revalidator changes identity with its state; the channel is about the user.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);

  const value = useMemo<AuthContextValue>(
    // A refused session is the invalid state of docs/product.md#states until the server hands out another one.
    () => ({ ...state, api, markInvalid: () => setState((current) => applyProfileCheck(current, "unauthorized")) }),
    [state, api],
  );

  return (
    <AuthContext.Provider value={value}>
      <div data-auth-status={value.status} className="contents">
        {value.status === "invalid" ? (
          <p role="alert" className="bg-amber-50 px-4 py-2 text-center text-sm text-amber-900">
            {invalidSession}
          </p>
        ) : null}
        {children}
      </div>
    </AuthContext.Provider>
  );
}
