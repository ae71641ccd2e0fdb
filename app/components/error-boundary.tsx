import { Link, isRouteErrorResponse, useLocation, useNavigate, useRouteError } from "@remix-run/react";
import type { MouseEvent } from "react";
import * as errorText from "~/lib/messages/error";

/**
 * The one error boundary (docs/architecture.md): a 404 shows the not-found page with the message the
 * route threw (`Page not found: {path}` or `Page Not Found: {path}`), a 503 the server's own message (the database is
 * out of reach), anything else the generic error page of docs/product.md#screens.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const detail = typeof error.data === "string" && error.data ? error.data : errorText.notFoundMessage(location.pathname);
    return <NotFoundPage detail={detail} />;
  }
  // The database out of reach (a restart): the server said so with a message of its own (app/infra/db/errors.ts).
  if (isRouteErrorResponse(error) && error.status === 503) {
    const said = (error.data as { error?: { message?: unknown } } | null)?.error?.message;
    return <UnavailablePage message={typeof said === "string" && said ? said : errorText.unavailableBody} />;
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage />;
}

function UnavailablePage({ message }: { message: string }) {
  return (
    <ErrorLayout face="(・_・;)" title={errorText.unavailableTitle}>
      <p>{message}</p>
    </ErrorLayout>
  );
}

function ErrorPage() {
  return (
    <ErrorLayout face="(´・ω・`)" title={errorText.title}>
      <p>{errorText.body}</p>
    </ErrorLayout>
  );
}

function NotFoundPage({ detail }: { detail: string }) {
  return (
    <ErrorLayout face="404" title={errorText.notFoundTitle}>
      <p>{errorText.notFoundBody}</p>
      <p className="mt-2 font-mono text-sm text-slate-500" data-testid="not-found-detail">
        {detail}
      </p>
    </ErrorLayout>
  );
}

function ErrorLayout({ face, title, children }: { face: string; title: string; children: React.ReactNode }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center" aria-labelledby="error-title">
      <div aria-hidden="true" className="mb-6 text-5xl font-bold text-slate-500">
        {face}
      </div>
      <h1 id="error-title" className="mb-3 text-2xl font-bold">
        {title}
      </h1>
      <div className="text-slate-600">{children}</div>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <BackButton />
        <Link to="/" className="btn-primary" reloadDocument>
          {errorText.top}
        </Link>
      </div>
    </section>
  );
}

/** Goes back in history, or home when there is none. Without JavaScript it is a plain form to home. */
function BackButton() {
  const navigate = useNavigate();
  const goBack = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    // Remix keeps its own history index; idx 0 means this tab has nowhere to go back to.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate("/");
  };
  return (
    <form action="/" method="get">
      <button type="submit" className="btn-secondary" onClick={goBack}>
        {errorText.back}
      </button>
    </form>
  );
}
