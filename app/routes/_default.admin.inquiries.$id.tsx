import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { deskNotFound, requireOperator } from "~/http/desk.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { INQUIRY_REPLY_MAX } from "~/lib/constants";
import { DESK_PAGES } from "~/lib/constants/desk";
import { inquiryDeskErrorMessage } from "~/lib/error-messages";
import { categoryLabel, inquiryStatusClass, inquiryStatusLabel } from "~/lib/inquiries";
import { messages } from "~/lib/messages";
import * as text from "~/lib/messages/desk";
import * as inquiryText from "~/lib/messages/desk-inquiries";
import { deskMeta } from "~/lib/desk-meta";
import { parseParams } from "~/lib/params";
import { formatDateTime } from "~/lib/time";
import { inquiryParamsSchema, inquiryReplySchema, inquiryStatusSchema } from "~/lib/validation/desk-inquiries";
import { getInquiry, InquiryDeskError, replyToInquiry, setInquiryStatus } from "~/models/inquiry-desk.server";

export const meta: MetaFunction = () => deskMeta(text.pageLabels.inquiries);

/**
 * One inquiry on the desk (/admin/inquiries/{id}, ADR 072; moderator and admin): the message, who sent it (their
 * account when they were signed in), the replies so far, the same address's earlier inquiries; a reply form that mails
 * the reply (its key, new on every visit, makes a second post of the same form the first), and close / reopen.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.inquiries.roles);
  const { id } = parseParams(inquiryParamsSchema, params, request);
  const found = await getInquiry({ db: context.db, id });
  if (!found) throw deskNotFound(request);
  return { ...found, key: crypto.randomUUID() };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { operator } = await requireOperator(request, context, DESK_PAGES.inquiries.roles);
  const { id } = parseParams(inquiryParamsSchema, params, request);
  const fields = Object.fromEntries(await readFormData(request));
  const here = new URL(request.url).pathname;
  try {
    if (fields.intent === "reply") {
      const reply = inquiryReplySchema.safeParse(fields);
      if (!reply.success) {
        const { fieldErrors } = reply.error.flatten();
        return data({ message: fieldErrors.body?.[0] ?? messages.validation.checkInput, body: typeof fields.body === "string" ? fields.body : "", key: typeof fields.key === "string" ? fields.key : null }, { status: 400 });
      }
      const { isNew } = await replyToInquiry({ db: context.db, operator, inquiryId: id, body: reply.data.body, key: reply.data.key });
      throw await redirectWithToast(request, context.config, here, { type: isNew ? "success" : "info", title: isNew ? messages.inquiry.replied : messages.inquiry.replyAgain });
    }
    const change = inquiryStatusSchema.safeParse(fields);
    if (!change.success) return data({ message: messages.validation.checkInput, body: null, key: null }, { status: 400 });
    const { changed } = await setInquiryStatus({ db: context.db, operator, inquiryId: id, status: change.data.intent === "close" ? "closed" : "open" });
    const title = !changed ? messages.inquiry.statusAlready : change.data.intent === "close" ? messages.inquiry.closed : messages.inquiry.reopened;
    throw await redirectWithToast(request, context.config, here, { type: changed ? "success" : "info", title });
  } catch (error) {
    if (!(error instanceof InquiryDeskError)) throw error;
    if (error.status === 404) throw deskNotFound(request);
    return data({ message: inquiryDeskErrorMessage(error.code), body: typeof fields.body === "string" ? fields.body : null, key: typeof fields.key === "string" ? fields.key : null }, { status: error.status });
  }
}

export default function DeskInquiryPage() {
  const { inquiry, replies, earlier, key } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const closed = inquiry.status === "closed";
  return (
    <article aria-labelledby="desk-inquiry-title" className="space-y-6">
      <div>
        <Link to={DESK_PAGES.inquiries.path} className="text-sm text-brand-700 underline">
          {inquiryText.back}
        </Link>
        <h1 id="desk-inquiry-title" className="mt-2 flex flex-wrap items-center gap-2 text-2xl font-bold">
          {text.pageLabels.inquiries} #{inquiry.id}
          <span className={`rounded-full px-2 py-0.5 text-sm ${inquiryStatusClass[inquiry.status]}`} data-testid="desk-inquiry-status">
            {inquiryStatusLabel(inquiry.status)}
          </span>
        </h1>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold text-slate-700">{inquiryText.receivedAt}</dt>
        <dd>{formatDateTime(inquiry.createdAt)}</dd>
        <dt className="font-semibold text-slate-700">{inquiryText.category}</dt>
        <dd>{categoryLabel(inquiry.category)}</dd>
        <dt className="font-semibold text-slate-700">{inquiryText.sender}</dt>
        <dd className="break-words">{inquiry.name}</dd>
        <dt className="font-semibold text-slate-700">{inquiryText.email}</dt>
        <dd className="break-all">{inquiry.email}</dd>
        <dt className="font-semibold text-slate-700">{inquiryText.account}</dt>
        <dd>
          {inquiry.sender ? (
            <Link to={`/admin/users/${inquiry.sender.id}`} className="text-brand-700 underline">
              {inquiry.sender.displayName}
            </Link>
          ) : (
            inquiryText.visitor
          )}
        </dd>
        {inquiry.handledLabel && inquiry.handledAt ? (
          <>
            <dt className="font-semibold text-slate-700">{inquiryText.handled}</dt>
            <dd className="break-all">{inquiryText.repliedBy(inquiry.handledLabel, formatDateTime(inquiry.handledAt))}</dd>
          </>
        ) : null}
      </dl>
      <section aria-labelledby="inquiry-message-title">
        <h2 id="inquiry-message-title" className="text-lg font-bold">
          {inquiryText.message}
        </h2>
        <p className="mt-2 whitespace-pre-wrap break-words rounded-lg bg-white p-4 ring-1 ring-slate-200" data-testid="desk-inquiry-body">
          {inquiry.body}
        </p>
      </section>
      <section aria-labelledby="inquiry-replies-title">
        <h2 id="inquiry-replies-title" className="text-lg font-bold">
          {inquiryText.replies}
        </h2>
        {replies.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{inquiryText.noReplies}</p>
        ) : (
          <ol className="mt-2 space-y-2">
            {replies.map((reply) => (
              <li key={reply.id} className="rounded-lg bg-emerald-50 p-3 ring-1 ring-emerald-200" data-testid="desk-inquiry-reply">
                <p className="text-xs text-slate-700">{inquiryText.repliedBy(reply.operatorLabel, formatDateTime(reply.createdAt))}</p>
                <p className="mt-1 whitespace-pre-wrap break-words">{reply.body}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
      {closed ? (
        <p className="rounded-lg bg-slate-100 p-3 text-sm">{inquiryText.closedNote}</p>
      ) : (
        <Form method="post" className="space-y-2" aria-labelledby="inquiry-reply-title">
          <h2 id="inquiry-reply-title" className="text-lg font-bold">
            {inquiryText.replyTitle}
          </h2>
          <input type="hidden" name="intent" value="reply" />
          <input type="hidden" name="key" value={refused?.key ?? key} />
          <label htmlFor="inquiry-reply" className="block text-sm font-semibold">
            {inquiryText.replyLabel}
          </label>
          <p id="inquiry-reply-hint" className="text-xs text-slate-600">
            {inquiryText.replyHint(INQUIRY_REPLY_MAX)}
          </p>
          <textarea
            id="inquiry-reply"
            name="body"
            rows={8}
            required
            maxLength={INQUIRY_REPLY_MAX}
            defaultValue={refused?.body ?? ""}
            aria-invalid={refused ? true : undefined}
            aria-describedby={refused ? "inquiry-reply-hint inquiry-reply-error" : "inquiry-reply-hint"}
            className="field-input"
          />
          {refused ? (
            <p id="inquiry-reply-error" role="alert" className="text-sm font-semibold text-red-700">
              {refused.message}
            </p>
          ) : null}
          <button type="submit" className="btn-primary min-h-11" disabled={busy}>
            {busy ? inquiryText.sending : inquiryText.send}
          </button>
        </Form>
      )}
      <Form method="post">
        <input type="hidden" name="intent" value={closed ? "reopen" : "close"} />
        <button type="submit" className="btn-secondary min-h-11" disabled={busy}>
          {closed ? inquiryText.reopen : inquiryText.close}
        </button>
      </Form>
      <section aria-labelledby="inquiry-earlier-title">
        <h2 id="inquiry-earlier-title" className="text-lg font-bold">
          {inquiryText.earlier}
        </h2>
        {earlier.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{inquiryText.noEarlier}</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {earlier.map((other) => (
              <li key={other.id}>
                <Link to={`${DESK_PAGES.inquiries.path}/${other.id}`} className="block rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200 hover:ring-brand-500">
                  <span className="font-semibold text-brand-700">
                    #{other.id} {formatDateTime(other.createdAt)} {inquiryStatusLabel(other.status)}
                  </span>
                  <span className="mt-1 line-clamp-2 block break-words text-slate-800">{other.body}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
