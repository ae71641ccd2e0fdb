import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { AuthProvider } from "./components/auth-provider";
import { CoinPurchaseProvider } from "./components/coin-purchase";
import { PostDialogProvider } from "./components/post-dialog";
import { ReviewDialogProvider } from "./components/review-dialog";
import { GeneralErrorBoundary } from "./components/error-boundary";
import { RealtimeProvider } from "./components/realtime-provider";
import { useRootData, type RootData } from "./components/root-data";
import { SiteChrome } from "./components/site-chrome";
import { Toaster } from "./components/toaster";
import { useBuildVersionCheck } from "./lib/build-version";
import { PRODUCT_TAGLINE } from "./lib/constants/site";
import * as errorText from "./lib/messages/error";
import { pageMeta } from "./lib/meta";
import { useNonce } from "./lib/nonce";
import { swallowed } from "./http/log.server";
import { getToast } from "./http/toast.server";
import { getBalance } from "./models/coins.server";
import { countUnreadNotifications } from "./models/notification.server";
import { getProfile } from "./models/user.server";
import appStyles from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Installable on a phone's home screen: the manifest and iOS's own icon (server/make-icons.mjs).
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

/**
 * Who is signed in (with the session's access token, for the socket) and their unread notifications, for the header;
 * whether Discord sign-in is offered; and the toast a form action flashed before redirecting here (read once, then
 * cleared).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await context.auth.getUser();
  const [profile, unreadNotifications, coinBalance, { toast, headers }] = await Promise.all([
    user ? getProfile({ db: context.db, userId: user.id }) : null,
    // A count or balance that cannot be read is zero, not a broken page (docs/product.md#errors).
    user ? countUnreadNotifications({ db: context.db, userId: user.id }).catch(swallowed("unread notifications", 0)) : 0,
    user ? getBalance(context.db, user.id).then((balance) => balance.totalBalance, swallowed("coin balance", 0)) : 0,
    getToast(request, context.config),
  ]);
  const rootData: RootData = {
    viewer: user
      ? { id: user.id, accessToken: user.accessToken, hasProfile: profile !== null, displayName: profile?.displayName ?? null, unreadNotifications, coinBalance }
      : null,
    auth: { discord: context.auth.publicConfig.discord },
    toast,
  };
  return data(rootData, headers ? { headers } : undefined);
}

/**
 * The root loader runs on every navigation, not only after a form: it is where the browser learns the session, so the
 * claims are refreshed after each route change (docs/product.md#states), and the header's counts come fresh with them.
 */
export const shouldRevalidate: ShouldRevalidateFunction = () => true;

/** Routes without a meta of their own (layouts, error boundaries) fall back to this one. */
export const meta: MetaFunction = ({ error, matches }) => {
  const routeError = error ?? matches.find((match) => match.error)?.error;
  if (!routeError) return pageMeta(PRODUCT_TAGLINE);
  const status = isRouteErrorResponse(routeError) ? routeError.status : 500;
  return pageMeta(status === 404 ? errorText.notFoundTitle : status === 503 ? errorText.unavailableTitle : errorText.title);
};

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="ja">
      <head>
        <meta charSet="utf-8" />
        {/* viewport-fit=cover: on a phone with a home indicator or a notch the page reaches the screen's edges and pads
            itself by the safe-area insets (app.css, the phone bar), rather than the browser letterboxing it. */}
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#5b3fd6" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast, viewer } = useLoaderData<typeof loader>();
  useBuildVersionCheck();
  useHydrationMark();
  return (
    <AppShell toast={toast} viewer={viewer}>
      <Outlet />
    </AppShell>
  );
}

/**
 * What every page runs inside: the browser's auth state, the realtime connection, the coin and review dialogs,
 * popups and toasts.
 */
function AppShell({ toast, viewer, children }: { toast: RootData["toast"]; viewer: RootData["viewer"]; children: ReactNode }) {
  return (
    <AuthProvider session={viewer ? { userId: viewer.id, accessToken: viewer.accessToken, hasProfile: viewer.hasProfile } : null}>
      <RealtimeProvider>
        <CoinPurchaseProvider>
          <ReviewDialogProvider>
            <PostDialogProvider>
              {children}
              <Toaster flashed={toast} />
              {viewer ? <MemberOverlays /> : null}
            </PostDialogProvider>
          </ReviewDialogProvider>
        </CoinPurchaseProvider>
      </RealtimeProvider>
    </AuthProvider>
  );
}

/** `<html data-hydrated>` once React has taken over the page: what tests and the first-load bench wait on. */
function useHydrationMark() {
  useEffect(() => document.documentElement.setAttribute("data-hydrated", ""), []);
}

// What only a signed-in tab runs (chat popups, the presence heartbeat) loads after hydration, for members only.
const MemberOnly = lazy(() => import("./components/member-overlays"));

function MemberOverlays() {
  const hydrated = useHydrated();
  return hydrated ? (
    <Suspense fallback={null}>
      <MemberOnly />
    </Suspense>
  ) : null;
}

/**
 * The 404 page and any error no route boundary caught. When only a child route failed the root loader's data is
 * still here, so the page runs inside the same shell as any other: without the auth provider the header's live
 * counts read the visitor as signed out and drop to zero. When the root loader itself failed, there is no session
 * to start the shell with, and the header shows the signed-out links.
 */
export function ErrorBoundary() {
  const data = useRootData();
  const page = (
    <SiteChrome>
      <GeneralErrorBoundary />
    </SiteChrome>
  );
  if (!data) return page;
  return (
    <AppShell toast={data.toast} viewer={data.viewer}>
      {page}
    </AppShell>
  );
}
