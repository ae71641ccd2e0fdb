import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MAIL_KINDS, type MailKind } from "~/lib/constants/mail";
import * as mailText from "~/lib/messages/mail";
import { pageMeta } from "~/lib/meta";
import { verifyUnsubscribe } from "~/lib/unsubscribe.server";
import { turnOffMailKind } from "~/models/mail-preferences.server";

export const meta: MetaFunction = () => [...pageMeta(mailText.unsubscribeTitle), { name: "robots", content: "noindex" }];

type Answer =
  | { state: "confirm"; kind: MailKind; label: string; action: string }
  | { state: "done"; kind: MailKind; label: string }
  | { state: "invalid" }
  | { state: "unknown" };

/**
 * What a link's query says: the user and kind when its signature is right (ADR 029). An unknown kind is a 404, a
 * forged, changed or cut signature a 400; neither says anything about the user.
 */
function readLink(request: Request, secret: string) {
  const params = new URL(request.url).searchParams;
  if (!(MAIL_KINDS as readonly string[]).includes(params.get("k") ?? "")) return { refused: data<Answer>({ state: "unknown" }, { status: 404 }) };
  const link = verifyUnsubscribe({ secret, params });
  if (!link) return { refused: data<Answer>({ state: "invalid" }, { status: 400 }) };
  return { link };
}

/**
 * GET `/unsubscribe?u&k&s`, the signed link in every notification mail: a page that names the kind and asks for
 * one click. It changes nothing, since mail scanners open links on their own.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const read = readLink(request, context.config.SESSION_SECRET);
  if ("refused" in read) return read.refused;
  const { link } = read;
  const params = new URL(request.url).searchParams;
  const action = `/unsubscribe?${new URLSearchParams({ u: link.userId, k: link.kind, s: params.get("s")! })}`;
  return data<Answer>({ state: "confirm", kind: link.kind, label: mailText.kindLabels[link.kind], action });
}

/**
 * POST to the same URL turns exactly that kind off, again and again alike: the page's button, and RFC 8058's
 * one-click unsubscribe, which a mail provider POSTs with `List-Unsubscribe=One-Click` and no cookies (let through
 * server/security.ts's cross-site check: the signature is the authority here, not a session).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const read = readLink(request, context.config.SESSION_SECRET);
  if ("refused" in read) return read.refused;
  const { link } = read;
  const known = await turnOffMailKind({ db: context.db, userId: link.userId, kind: link.kind });
  if (!known) return data<Answer>({ state: "unknown" }, { status: 404 });
  return data<Answer>({ state: "done", kind: link.kind, label: mailText.kindLabels[link.kind] });
}

export default function UnsubscribePage() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const answer = (acted ?? loaded) as Answer;
  const submitting = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="unsubscribe-title" className="mx-auto max-w-xl space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      {answer.state === "confirm" ? (
        <>
          <h1 id="unsubscribe-title" className="text-2xl font-bold">
            {mailText.unsubscribeTitle}
          </h1>
          <p>{mailText.unsubscribeLead(answer.label)}</p>
          <p className="text-sm text-slate-600">{mailText.unsubscribeOthers}</p>
          <Form method="post" action={answer.action}>
            <button type="submit" className="btn-primary" disabled={submitting}>
              {mailText.unsubscribeAction}
            </button>
          </Form>
        </>
      ) : answer.state === "done" ? (
        <>
          <h1 id="unsubscribe-title" className="text-2xl font-bold">
            {mailText.unsubscribeDone}
          </h1>
          <p role="status">{mailText.unsubscribeDoneBody(answer.label)}</p>
        </>
      ) : (
        <>
          <h1 id="unsubscribe-title" className="text-2xl font-bold">
            {answer.state === "invalid" ? mailText.unsubscribeInvalid : mailText.unsubscribeUnknown}
          </h1>
          <p>{answer.state === "invalid" ? mailText.unsubscribeInvalidBody : mailText.unsubscribeUnknownBody}</p>
        </>
      )}
      <p className="text-sm">
        <Link to="/settings/notifications" className="text-brand-700 underline">
          {mailText.unsubscribeSettings}
        </Link>
      </p>
    </section>
  );
}
