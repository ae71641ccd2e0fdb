import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { useRealtimeEvent } from "~/components/realtime-provider";
import { REVIEW_SUBMITTED_EVENT } from "~/components/review-dialog";
import { BookingCard } from "~/components/booking-card";
import { useBookingReloads } from "~/components/use-booking-reloads";
import { requireProfile, safeRedirectPath } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { BOOKING_ACTIONS, BOOKING_STATUS_LABELS, type BookingState } from "~/lib/booking-rules";
import { bookingErrorMessage } from "~/lib/error-messages";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { RealtimeEvent } from "~/lib/realtime-events";
import { idempotencyKeySchema, redirectToField, uuidParam } from "~/lib/validation/fields";
import { unitsField } from "~/lib/validation/listing";
import { actOnBooking } from "~/models/bookings/act.server";
import { BookingError } from "~/models/bookings/error.server";
import { listBookings } from "~/models/bookings/queries.server";
import { CoinError } from "~/models/coins.server";

export const meta: MetaFunction = () => pageMeta("チケット管理");

const querySchema = z.object({ role: z.enum(["buyer", "seller"]).optional().default("buyer") });
const STATUS_ORDER: BookingState[] = ["in_progress", "accepted", "pending", "completed", "cancelled"];

/** The caller's bookings as buyer or as seller (a tab each), grouped by status, with the actions each allows now. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const { role } = parseQuery(querySchema, request);
  const bookings = await listBookings({ db: context.db, userId: user.id });
  const mine = bookings.filter((booking) => booking.isSeller === (role === "seller"));
  // An extension spends coins: its form carries a key made when the page is rendered (docs/product.md#coins).
  const extensionKeys = Object.fromEntries(mine.filter((booking) => booking.status === "in_progress" && !booking.isSeller).map((booking) => [booking.id, crypto.randomUUID()]));
  const counts = { buyer: bookings.filter((booking) => !booking.isSeller).length, seller: bookings.filter((booking) => booking.isSeller).length };
  return { role, bookings: mine, extensionKeys, counts };
}

const actionSchema = z.object({
  bookingId: uuidParam,
  intent: z.enum(BOOKING_ACTIONS),
  units: unitsField.optional(),
  idempotencyKey: idempotencyKeySchema.optional(),
  redirectTo: redirectToField,
});

/** Every booking action as a plain form: the same model call as POST /api/tickets/{id}/{action}. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const form = actionSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!form.success) return data({ bookingId: null, error: messages.validation.checkInput }, { status: 400 });
  const { bookingId, intent, units, idempotencyKey, redirectTo } = form.data;
  if (intent === "extend" && (!units || !idempotencyKey)) return data({ bookingId, error: messages.validation.checkInput }, { status: 400 });
  try {
    await actOnBooking({
      db: context.db,
      realtime: context.realtime,
      feePercent: context.config.PLATFORM_FEE_PERCENT,
      userId: user.id,
      bookingId,
      action: intent,
      units,
      idempotencyKey,
    });
  } catch (error) {
    if (error instanceof BookingError) return data({ bookingId, error: bookingErrorMessage(error.code, error.reason) }, { status: error.status });
    if (error instanceof CoinError) return data({ bookingId, error: bookingErrorMessage(error.code) }, { status: error.status });
    throw error;
  }
  throw await redirectWithToast(request, context.config, safeRedirectPath(redirectTo, "/settings/ticket-management"), {
    type: "success",
    title: messages.bookings.done[intent],
  });
}

export default function BookingManagementPage() {
  const { role, bookings, extensionKeys, counts } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const reload = () => revalidator.state === "idle" && revalidator.revalidate();
  // The header's balance refreshes itself on a refund (CoinBalanceButton); this page reloads its bookings.
  useBookingReloads({ reload });
  useRealtimeEvent(RealtimeEvent.gameStarted, reload);
  useRealtimeEvent(RealtimeEvent.gameExtended, reload);
  // A review sent from the dialog (the `submitted` of docs/product.md#states): the card says 「レビュー済み」.
  useEffect(() => {
    window.addEventListener(REVIEW_SUBMITTED_EVENT, reload);
    return () => window.removeEventListener(REVIEW_SUBMITTED_EVENT, reload);
  });
  const groups = STATUS_ORDER.map((status) => ({ status, bookings: bookings.filter((booking) => booking.status === status) })).filter((group) => group.bookings.length);
  const here = `/settings/ticket-management?role=${role}`;
  const tab = (value: "buyer" | "seller", label: string) => (
    <Link
      to={`?role=${value}`}
      aria-current={role === value ? "page" : undefined}
      className={`rounded-t-lg px-4 py-2 text-sm font-semibold ${role === value ? "bg-white text-brand-700 ring-1 ring-slate-200" : "text-slate-600 hover:text-slate-900"}`}
    >
      {label}（{counts[value]}）
    </Link>
  );

  return (
    <section aria-labelledby="management-title" className="space-y-5">
      <h1 id="management-title" className="text-2xl font-bold">
        チケット管理
      </h1>
      <nav aria-label="購入と販売" className="flex gap-1 border-b border-slate-200">
        {tab("buyer", "購入したチケット")}
        {tab("seller", "販売したチケット")}
      </nav>
      {actionData?.error && !actionData.bookingId ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
          {actionData.error}
        </p>
      ) : null}
      {groups.length === 0 ? (
        <div className="rounded-xl bg-white p-8 text-center ring-1 ring-slate-200">
          {role === "buyer" ? (
            <>
              <p className="font-semibold">まだチケットを購入していません。</p>
              <Link to="/explore" className="mt-2 inline-block text-brand-700 underline">
                チケットを探す
              </Link>
            </>
          ) : (
            <>
              <p className="font-semibold">まだ販売したチケットはありません。</p>
              <Link to="/mypage/ticket-registration" className="mt-2 inline-block text-brand-700 underline">
                チケットを出品する
              </Link>
            </>
          )}
        </div>
      ) : (
        groups.map((group) => (
          <section key={group.status} aria-labelledby={`group-${group.status}`} className="space-y-3">
            <h2 id={`group-${group.status}`} className="text-lg font-bold">
              {BOOKING_STATUS_LABELS[group.status]}（{group.bookings.length}）
            </h2>
            {group.bookings.map((booking) => (
              <BookingCard
                key={booking.id}
                booking={booking}
                extensionKey={extensionKeys[booking.id]}
                error={actionData?.bookingId === booking.id ? actionData.error : null}
                redirectTo={here}
              />
            ))}
          </section>
        ))
      )}
    </section>
  );
}
