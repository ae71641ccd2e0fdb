import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { IntentButton } from "~/components/intent-button";
import { Avatar } from "~/components/presence";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { eventErrorMessage } from "~/lib/error-messages";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { formatDateTime, isoString } from "~/lib/time";
import { eventActionSchema } from "~/lib/validation/event";
import { uuidParam } from "~/lib/validation/fields";
import { EventError, getEvent, joinEvent, leaveEvent } from "~/models/events.server";

const paramsSchema = z.object({ id: uuidParam });

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data ? data.event.title : "イベント", data ? `${data.event.game.name}のイベント` : undefined);

/** `/events/{id}`: the event, its seats and participants; join and leave as plain forms to this page's action. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const viewer = await context.auth.getUser();
  const event = await getEvent({ db: context.db, eventId: id, viewerId: viewer?.id, now: new Date() });
  if (!event) throw new Response(null, { status: 404 });
  const { pathname } = new URL(request.url);
  return { event, signedIn: !!viewer, loginHref: `/login?${new URLSearchParams({ redirectTo: pathname })}` };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const form = eventActionSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!form.success) return data({ error: messages.validation.checkInput }, { status: 400 });
  const now = new Date();
  try {
    let title: string;
    if (form.data.intent === "join") {
      const { joined } = await joinEvent({ db: context.db, eventId: id, userId: user.id, now });
      title = joined ? messages.events.joined : messages.events.alreadyJoined;
    } else {
      const { left } = await leaveEvent({ db: context.db, eventId: id, userId: user.id, now });
      title = left ? messages.events.left : messages.events.notJoined;
    }
    throw await redirectWithToast(request, context.config, `/events/${id}`, { type: "success", title });
  } catch (error) {
    if (error instanceof EventError) return data({ error: eventErrorMessage(error.code) }, { status: error.status });
    throw error;
  }
}

export default function EventPage() {
  const { event, signedIn, loginHref } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";
  return (
    <article aria-labelledby="event-title" className="mx-auto max-w-2xl space-y-6">
      <div className="space-y-2">
        <p className="text-sm text-slate-600">
          <Link to={`/events?game=${event.game.slug}`} className="text-brand-700 underline">
            {event.game.name}
          </Link>
        </p>
        <h1 id="event-title" className="text-2xl font-bold">
          {event.title}
        </h1>
      </div>
      <dl className="grid grid-cols-1 gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-3">
        <div>
          <dt className="text-xs text-slate-600">日時（日本時間）</dt>
          <dd className="font-semibold">
            <time dateTime={isoString(event.startsAt)}>{formatDateTime(event.startsAt)}</time>〜<time dateTime={isoString(event.endsAt)}>{formatDateTime(event.endsAt)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">定員</dt>
          <dd className="font-semibold">{event.capacity}人</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">残り席数</dt>
          <dd className="font-semibold" data-testid="seats-left">
            {event.seatsLeft === 0 ? "満員" : `残り${event.seatsLeft}席`}（参加 {event.participantsCount}人）
          </dd>
        </div>
      </dl>
      {event.description ? <p className="whitespace-pre-wrap break-words text-slate-800">{event.description}</p> : null}

      {failure?.error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
          {failure.error}
        </p>
      ) : null}
      {event.started ? (
        <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700">このイベントは開始済みです。</p>
      ) : !signedIn ? (
        <p>
          <Link to={loginHref} className="btn-primary">
            ログインして参加する
          </Link>
        </p>
      ) : event.joined ? (
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <p className="text-sm font-semibold text-green-700">参加予定です</p>
          <input type="hidden" name="intent" value="leave" />
          <button type="submit" className="btn-secondary" disabled={submitting}>
            参加を取り消す
          </button>
        </Form>
      ) : event.seatsLeft === 0 ? (
        <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">{messages.events.full}</p>
      ) : (
        <IntentButton intent="join" className="btn-primary" disabled={submitting}>
          参加する
        </IntentButton>
      )}

      <section aria-labelledby="participants-title" className="space-y-3">
        <h2 id="participants-title" className="text-lg font-bold">
          参加者（{event.participantsCount}人）
        </h2>
        {event.participants.length === 0 ? (
          <p className="text-sm text-slate-700">まだ参加者はいません。</p>
        ) : (
          <ul className="flex flex-wrap gap-3">
            {event.participants.map((participant) => (
              <li key={participant.uid}>
                <Link to={participant.link} className="flex items-center gap-2 rounded-lg px-2 py-1 hover:bg-slate-100">
                  <Avatar name={participant.displayName} src={participant.avatarUrl} size="sm" />
                  <span className="text-sm">{participant.displayName}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {event.participantsCount > event.participants.length ? <p className="text-sm text-slate-600">ほか{event.participantsCount - event.participants.length}人</p> : null}
      </section>
      <p>
        <Link to="/events" className="text-sm text-slate-700 underline">
          イベント一覧に戻る
        </Link>
      </p>
    </article>
  );
}
