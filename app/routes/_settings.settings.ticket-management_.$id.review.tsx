import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { ErrorList } from "~/components/forms";
import { Avatar } from "~/components/presence";
import { ReviewCommentField, ReviewErrorAlert, ReviewTipField } from "~/components/review-fields";
import { StarRating } from "~/components/star-rating";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { swallowed } from "~/http/log.server";
import { redirectWithToast } from "~/http/toast.server";
import { counterpartLabel } from "~/lib/booking-rules";
import { reviewErrorMessage } from "~/lib/error-messages";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { uuidParam } from "~/lib/validation/fields";
import { reviewSchema } from "~/lib/validation/review";
import { getBooking } from "~/models/bookings/queries.server";
import { CoinError, getBalance } from "~/models/coins.server";
import { ReviewError, submitReview } from "~/models/reviews.server";

export const meta: MetaFunction = () => pageMeta("レビューを書く");

const paramsSchema = z.object({ id: uuidParam });
const back = "/settings/ticket-management";

/** The review dialog's page twin (docs/product.md#screens): the same review as a plain form, for a browser without JavaScript. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const booking = await getBooking({ db: context.db, userId: user.id, bookingId: id });
  if (!booking) throw new Response(null, { status: 404 });
  const balance = booking.isSeller ? null : await getBalance(context.db, user.id).then((b) => b.totalBalance, swallowed("coin balance", 0));
  return { booking, balance };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { id } = parseParams(paramsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const fields = Object.fromEntries(await readFormData(request));
  const parsed = reviewSchema.safeParse({ ...fields, bookingId: id });
  if (!parsed.success) return data({ fieldErrors: parsed.error.flatten().fieldErrors, error: null, insufficient: false, values: fields }, { status: 400 });
  try {
    await submitReview({ db: context.db, realtime: context.realtime, feePercent: context.config.PLATFORM_FEE_PERCENT, reviewerId: user.id, input: parsed.data });
  } catch (error) {
    // The same form sent twice (a double click, the back button): the first one stands.
    if (error instanceof ReviewError && error.code === "already_reviewed") {
      throw await redirectWithToast(request, context.config, back, { type: "success", title: messages.reviews.sent });
    }
    if (error instanceof ReviewError || error instanceof CoinError) {
      return data({ fieldErrors: {}, error: reviewErrorMessage(error.code), insufficient: error.code === "insufficient_coins", values: fields }, { status: error.status });
    }
    throw error;
  }
  throw await redirectWithToast(request, context.config, back, { type: "success", title: messages.reviews.sent });
}

export default function ReviewPage() {
  const { booking, balance } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";
  const other = booking.isSeller ? booking.buyer : booking.seller;
  const values = (actionData?.values ?? {}) as Record<string, string | undefined>;
  const fieldErrors = (actionData?.fieldErrors ?? {}) as Record<string, string[] | undefined>;

  return (
    <section aria-labelledby="review-title" className="mx-auto max-w-xl space-y-5">
      <h1 id="review-title" className="text-2xl font-bold">
        レビューを書く
      </h1>
      <div className="flex items-center gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <Avatar name={other.displayName} src={other.avatar} />
        <div>
          <p className="text-xs text-slate-600">{counterpartLabel(booking.isSeller)}</p>
          <p className="font-semibold">{other.displayName}</p>
          <p className="text-sm text-slate-600">{booking.title}</p>
        </div>
      </div>
      {booking.status !== "completed" ? (
        <p role="alert" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {messages.reviews.notCompleted}
        </p>
      ) : !booking.canReview ? (
        <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700">{messages.reviews.alreadyReviewed}</p>
      ) : (
        <Form method="post" className="space-y-5 rounded-xl bg-white p-5 ring-1 ring-slate-200">
          <div>
            <StarRating name="rating" defaultValue={Number(values.rating)} invalid={!!fieldErrors.rating?.length} errorId="rating-error" />
            <ErrorList id="rating-error" errors={fieldErrors.rating} />
          </div>
          <ReviewCommentField id="comment" defaultValue={values.comment} errors={fieldErrors.comment} />
          {booking.isSeller ? null : <ReviewTipField defaultValue={Number(values.tipAmount ?? 0)} errors={fieldErrors.tipAmount} balance={balance ?? 0} />}
          <ReviewErrorAlert error={actionData?.error} insufficient={!!actionData?.insufficient} />
          <button type="submit" className="btn-primary w-full" disabled={submitting}>
            {submitting ? "送信中…" : "レビューを送信する"}
          </button>
        </Form>
      )}
      <p className="text-center text-sm">
        <Link to={back} className="text-brand-700 underline">
          チケット管理に戻る
        </Link>
      </p>
    </section>
  );
}
