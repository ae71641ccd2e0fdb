import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthProvider } from "./components/auth-provider";
import { ChatPopups } from "./components/chat-popups";
import { GeneralErrorBoundary } from "./components/error-boundary";
import { RealtimeProvider } from "./components/realtime-provider";
import { SiteChrome } from "./components/site-chrome";
import { useBuildVersionCheck } from "./lib/build-version";
import { PRODUCT_TAGLINE } from "./lib/constants";
import { messages } from "./lib/messages";
import { pageMeta } from "./lib/meta";
import { useNonce } from "./lib/nonce";
import { getProfile } from "./models/user.server";
import appStyles from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** Who is signed in, for the header; and where supabase-js in the browser finds the auth server. */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await context.auth.getUser();
  const profile = user ? await getProfile({ db: context.db, userId: user.id }) : null;
  return {
    viewer: user ? { id: user.id, displayName: profile?.displayName ?? null } : null,
    auth: context.auth.publicConfig,
  };
}

/** Routes without a meta of their own (layouts, error boundaries) fall back to this one. */
export const meta: MetaFunction = ({ error, matches }) => {
  const routeError = error ?? matches.find((match) => match.error)?.error;
  if (!routeError) return pageMeta(PRODUCT_TAGLINE);
  const notFound = isRouteErrorResponse(routeError) && routeError.status === 404;
  return pageMeta(notFound ? messages.error.notFoundTitle : messages.error.title);
};

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="ja">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
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
  const { auth } = useLoaderData<typeof loader>();
  useBuildVersionCheck();
  return (
    <AuthProvider config={auth}>
      <RealtimeProvider>
        <Outlet />
        <ChatPopups />
      </RealtimeProvider>
    </AuthProvider>
  );
}

export function ErrorBoundary() {
  return (
    <SiteChrome>
      <GeneralErrorBoundary />
    </SiteChrome>
  );
}
