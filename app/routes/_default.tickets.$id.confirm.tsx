import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { BuyCoinsLink } from "~/components/coin-purchase";
import { DetailRow } from "~/components/detail-row";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { swallowed } from "~/http/log.server";
import { redirectWithToast } from "~/http/toast.server";
import { purchaseFormSchema, purchaseSchema } from "~/lib/validation/booking";
import { formatMinutes } from "~/lib/booking-time";
import { bookingErrorMessage } from "~/lib/error-messages";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { idempotencyKeySchema, uuidParam } from "~/lib/validation/fields";
import { formatDateTime } from "~/lib/time";
import { BookingError } from "~/models/bookings/error.server";
import { purchaseListing, purchaseProblem } from "~/models/bookings/purchase.server";
import { CoinError, getBalance } from "~/models/coins.server";
import { getListing } from "~/models/listings.server";

export const meta: MetaFunction = () => pageMeta("購入内容の確認");

const paramsSchema = z.object({ id: uuidParam });

/**
 * The last step before coins go into escrow (docs/product.md#coins): the total, the balance and the start time, and a plain
 * form whose idempotency key lives in this page's URL (made on the first visit, as the coin checkout's), so the
 * same form posted twice (a double click, the back button, a retry) books once.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const listing = await getListing({ db: context.db, listingId: id, viewerId: user.id });
  if (!listing) throw new Response(null, { status: 404 });
  const url = new URL(request.url);
  const choice = purchaseSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!choice.success) {
    const errors = Object.values(choice.error.flatten().fieldErrors).flat();
    return data({ listing, choice: null, problem: errors[0] ?? messages.validation.checkInput, balance: 0, idempotencyKey: "" }, { status: 400 });
  }
  const key = idempotencyKeySchema.safeParse(url.searchParams.get("key") ?? undefined);
  if (!key.success) {
    // Only what the form chose, and the new key: nothing else in the URL is carried over.
    const { units, desiredStartTime, note } = Object.fromEntries(url.searchParams);
    const kept = new URLSearchParams({ units: units!, desiredStartTime: desiredStartTime!, ...(note ? { note } : {}), key: crypto.randomUUID() });
    throw redirect(`${url.pathname}?${kept}`);
  }
  const balance = await getBalance(context.db, user.id).then((b) => b.totalBalance, swallowed("coin balance", 0));
  const { units, desiredStartTime, note } = choice.data;
  const problemMessage = (problem: BookingError | null) => (problem ? bookingErrorMessage(problem.code, problem.reason) : null);
  return {
    listing,
    choice: { units, desiredStartTime: desiredStartTime.toISOString(), note },
    problem: problemMessage(purchaseProblem({ listing: { sellerId: listing.seller.uid, status: listing.status, maxUnits: listing.maxUnits, hidden: listing.hidden }, buyerId: user.id, input: choice.data, now: new Date() })),
    balance,
    idempotencyKey: key.data,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const form = purchaseFormSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!form.success) return data({ error: messages.validation.checkInput, insufficient: false }, { status: 400 });
  const { idempotencyKey, ...input } = form.data;
  try {
    await purchaseListing({ db: context.db, realtime: context.realtime, buyerId: user.id, listingId: id, input, idempotencyKey });
  } catch (error) {
    if (error instanceof CoinError || error instanceof BookingError) {
      const message = error instanceof BookingError ? bookingErrorMessage(error.code, error.reason) : bookingErrorMessage(error.code);
      return data({ error: message, insufficient: error.code === "insufficient_coins" }, { status: error.status });
    }
    throw error;
  }
  throw await redirectWithToast(request, context.config, "/settings/ticket-management", { type: "success", title: messages.bookings.booked });
}

export default function ConfirmBookingPage() {
  const { listing, choice, problem, balance, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";
  const total = choice ? listing.pricePerUnit * choice.units : 0;
  const short = choice !== null && balance < total;
  const back = (
    <Link to={`/tickets/${listing.id}`} className="text-brand-700 underline">
      チケットのページに戻る
    </Link>
  );

  return (
    <section aria-labelledby="confirm-title" className="mx-auto max-w-xl space-y-5">
      <h1 id="confirm-title" className="text-2xl font-bold">
        購入内容の確認
      </h1>
      {choice === null || problem ? (
        <div role="alert" className="space-y-2 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
          <p>{problem}</p>
          <p>{back}</p>
        </div>
      ) : null}
      {choice ? (
        <>
          <table className="w-full overflow-hidden rounded-xl bg-white text-sm ring-1 ring-slate-200">
            <caption className="sr-only">購入するチケット</caption>
            <tbody className="divide-y divide-slate-100">
              <DetailRow label="チケット">{listing.title}</DetailRow>
              <DetailRow label="販売者">{listing.seller.displayName}</DetailRow>
              <DetailRow label="ゲーム">{listing.game.name}</DetailRow>
              <DetailRow label="枠数">
                {choice.units}枠（{formatMinutes(listing.minutesPerUnit * choice.units)}）
              </DetailRow>
              <DetailRow label="開始希望日時">{formatDateTime(choice.desiredStartTime)}</DetailRow>
              {choice.note ? <DetailRow label="メッセージ">{choice.note}</DetailRow> : null}
              <DetailRow label="お支払い">
                <strong>{formatNumber(total)}コイン</strong>
              </DetailRow>
              <DetailRow label={short ? "現在の残高" : "購入後の残高"}>
                {short ? (
                  `${formatNumber(balance)}コイン`
                ) : (
                  <>
                    {formatNumber(balance)} → <strong>{formatNumber(balance - total)}コイン</strong>
                  </>
                )}
              </DetailRow>
            </tbody>
          </table>
          <p className="text-sm text-slate-700">
            コインは取引が完了するまで預かられます。販売者が48時間以内に承認しない場合や、開始前にキャンセルされた場合は全額返金されます。
          </p>
          {short || actionData?.insufficient ? (
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
              {messages.coins.insufficient}（あと{formatNumber(Math.max(total - balance, 1))}コイン）
              <BuyCoinsLink className="ml-2 font-semibold underline">コインを購入</BuyCoinsLink>
            </p>
          ) : actionData?.error ? (
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
              {actionData.error}
            </p>
          ) : null}
          {problem ? null : (
            <Form method="post" replace>
              <input type="hidden" name="units" value={choice.units} />
              <input type="hidden" name="desiredStartTime" value={choice.desiredStartTime} />
              <input type="hidden" name="note" value={choice.note} />
              <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
              <button type="submit" className="btn-primary w-full text-base" disabled={submitting || short}>
                {submitting ? "処理中…" : `${formatNumber(total)}コインで購入する`}
              </button>
            </Form>
          )}
          <p className="text-center text-sm">{back}</p>
        </>
      ) : null}
    </section>
  );
}
