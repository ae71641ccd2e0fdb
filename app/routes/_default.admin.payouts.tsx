import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { DeskPayoutCard, type DeskPayoutNotice } from "~/components/desk-payout-card";
import { requireOperator } from "~/http/desk.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { PAYOUT_DESK_MAX } from "~/lib/constants";
import { DESK_PAGES } from "~/lib/constants/desk";
import { payoutErrorMessage } from "~/lib/error-messages";
import { messages } from "~/lib/messages";
import * as text from "~/lib/messages/desk";
import * as payoutText from "~/lib/messages/desk-payouts";
import { deskMeta } from "~/lib/desk-meta";
import { payoutDecisionSchema, payoutRevealSchema } from "~/lib/validation/desk-payouts";
import { CoinError } from "~/models/coins.server";
import { admitPayoutDeskPost, listPayoutDesk, payoutAwaitsDecision, PayoutDeskError, revealBankDetails } from "~/models/payout-desk.server";
import { decidePayout, PayoutError } from "~/models/payouts.server";

export const meta: MetaFunction = () => deskMeta(text.pageLabels.payouts);

const PATH = DESK_PAGES.payouts.path;
/** A reveal's answer is the operator's alone, once: no cache keeps it (ADR 072). */
const NO_STORE = { "Cache-Control": "no-store" };

/**
 * The payouts desk (/admin/payouts, ADR 072; finance and admin): requested payouts oldest first, each with the
 * seller's earned balance and earlier requests, the account number masked. 「表示」 posts a reveal, logged in the audit
 * trail, and this response alone shows the details in full; 振込済みにする / 却下する post the decision with a reason, through
 * `decidePayout`, the same as `npm run payouts`, then come back here with a toast.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, DESK_PAGES.payouts.roles);
  return data(await listPayoutDesk({ db: context.db }), { headers: NO_STORE });
}

/** The document's headers too (Remix takes a page's headers from here, not from its loader's or action's answer). */
export const headers: HeadersFunction = () => NO_STORE;

const refused = (notice: DeskPayoutNotice, status: number) => data({ revealed: null, notice }, { status, headers: NO_STORE });

export async function action({ request, context }: ActionFunctionArgs) {
  const { operator } = await requireOperator(request, context, DESK_PAGES.payouts.roles);
  const form = await readFormData(request);
  const fields = Object.fromEntries(form);
  const payoutId = typeof fields.payoutId === "string" ? fields.payoutId : "";
  if (fields.intent === "reveal") {
    const reveal = payoutRevealSchema.safeParse(fields);
    if (!reveal.success) return refused({ payoutId, message: messages.validation.checkInput }, 400);
    try {
      const revealed = await revealBankDetails({ db: context.db, operator, payoutId: reveal.data.payoutId });
      return data({ revealed, notice: null }, { headers: NO_STORE });
    } catch (error) {
      if (error instanceof PayoutDeskError) return refused({ payoutId, message: error.status === 429 ? messages.payouts.deskRateLimited : messages.payouts.notFound }, error.status);
      throw error;
    }
  }
  const decision = payoutDecisionSchema.safeParse(fields);
  if (!decision.success) {
    const { fieldErrors } = decision.error.flatten();
    return refused({ payoutId, message: fieldErrors.reason?.[0] ?? messages.validation.checkInput, field: fieldErrors.reason ? "reason" : undefined, reason: typeof fields.reason === "string" ? fields.reason : "" }, 400);
  }
  // Counted only when the decision would change the payout: a refusal (unknown, already decided) writes nothing.
  const awaiting = await payoutAwaitsDecision(context.db, decision.data.payoutId);
  if (awaiting === null) return refused({ payoutId, message: messages.payouts.notFound }, 404);
  if (awaiting && !(await admitPayoutDeskPost(context.db, operator))) return refused({ payoutId, message: messages.payouts.deskRateLimited, reason: decision.data.reason }, 429);
  try {
    const { payout, changed } = await decidePayout({
      db: context.db,
      realtime: context.realtime,
      operator,
      payoutId: decision.data.payoutId,
      decision: decision.data.intent === "pay" ? "paid" : "rejected",
      reason: decision.data.reason,
    });
    const title = !changed ? messages.payouts.deskUnchanged(messages.payouts.status[payout.status]) : payout.status === "paid" ? messages.payouts.deskPaid : messages.payouts.deskRejected;
    throw await redirectWithToast(request, context.config, PATH, { type: changed ? "success" : "info", title });
  } catch (error) {
    if (error instanceof PayoutError || error instanceof CoinError) return refused({ payoutId, message: payoutErrorMessage(error.code), reason: decision.data.reason }, error.status);
    throw error;
  }
}

export default function DeskPayoutsPage() {
  const { payouts, more } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="desk-payouts-title" className="space-y-4">
      <div>
        <h1 id="desk-payouts-title" className="text-2xl font-bold">
          {text.pageLabels.payouts}
        </h1>
        <p className="mt-1 text-sm text-slate-600">{payoutText.lead}</p>
      </div>
      {payouts.length === 0 ? (
        <p className="rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">{payoutText.empty}</p>
      ) : (
        <ol className="space-y-4" aria-label={payoutText.listLabel(payouts.length)}>
          {payouts.map((payout) => (
            <DeskPayoutCard
              key={payout.id}
              payout={payout}
              revealed={answer?.revealed?.payoutId === payout.id ? answer.revealed : null}
              notice={answer?.notice?.payoutId === payout.id ? answer.notice : null}
              busy={busy}
            />
          ))}
        </ol>
      )}
      {more ? <p className="text-sm text-slate-600">{payoutText.more(PAYOUT_DESK_MAX)}</p> : null}
    </section>
  );
}
