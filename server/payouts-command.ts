import type { Database } from "../app/infra/db/tables";
import { payoutErrorMessage } from "../app/lib/error-messages";
import { formatNumber } from "../app/lib/format";
import { messages } from "../app/lib/messages";
import { accountTypeLabel } from "../app/lib/payouts";
import { formatDateTime } from "../app/lib/time";
import { uuidParam } from "../app/lib/validation/fields";
import { CoinError } from "../app/models/coins.server";
import type { Operator } from "../app/models/operator-audit.server";
import { revealRequestedPayouts } from "../app/models/payout-desk.server";
import { decidePayout, PayoutError } from "../app/models/payouts.server";
import { shellOperator } from "./operator-cli";

/**
 * The operator's payout command (`npm run payouts -- list|pay ID|reject ID`, ADR 020), apart from its entry
 * (payouts-cli.ts) so tests run it against their own database. `list` shows the full account numbers and, like the
 * desk's 「表示」, leaves a `bank_details_revealed` row per request in the audit trail (ADR 072). There is no realtime server here: a decision's notification is stored, and the seller sees it in the list.
 */

export const PAYOUTS_USAGE = `使い方: npm run payouts -- <コマンド>
  list         申請中の振込申請を口座情報（口座番号は全桁）とともに古い順に表示（表示は監査ログに記録）
  pay ID       振込済みにする（売上コインは戻らない）。申請者に通知
  reject ID    却下する（売上コインを申請者に戻す）。申請者に通知`;

export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

export type PayoutsCommand = { name: "list" } | { name: "pay" | "reject"; id: string };

/** The command these arguments ask for, or null (then print PAYOUTS_USAGE and exit 1). */
export function parsePayoutsArgs(args: readonly string[]): PayoutsCommand | null {
  const [name, id, ...rest] = args;
  if (name === "list" && id === undefined) return { name };
  if ((name === "pay" || name === "reject") && id !== undefined && rest.length === 0) return { name, id };
  return null;
}

/** Runs one command; answers the process's exit code (0 done, 1 bad usage or a refused decision). */
export async function runPayoutsCommand(
  args: readonly string[],
  { db, out, err, operator = shellOperator() }: { db: Database; /** Who the audit trail names (the shell's user). */ operator?: Operator } & Output,
): Promise<number> {
  const command = parsePayoutsArgs(args);
  if (!command) {
    err(PAYOUTS_USAGE);
    return 1;
  }
  if (command.name === "list") {
    const payouts = await revealRequestedPayouts({ db, operator });
    if (payouts.length === 0) {
      out("申請中の振込申請はありません");
      return 0;
    }
    for (const payout of payouts) {
      out(`${payout.id}  ${formatDateTime(payout.createdAt)}  ${payout.sellerName} (${payout.sellerId})`);
      out(`  ${formatNumber(payout.coins)}コイン → ${formatNumber(payout.yenAmount)}円`);
      out(`  ${payout.bankName} ${payout.branchName} ${accountTypeLabel(payout.accountType)} ${payout.accountNumber} ${payout.accountHolder}`);
    }
    out(`${payouts.length}件`);
    return 0;
  }
  const { id } = command;
  const payoutId = uuidParam.safeParse(id);
  if (!payoutId.success) {
    err(`${id}: ${messages.payouts.notFound}`);
    return 1;
  }
  try {
    const { payout, changed } = await decidePayout({ db, operator, payoutId: payoutId.data, decision: command.name === "pay" ? "paid" : "rejected" });
    const status = messages.payouts.status[payout.status];
    out(changed ? `${payout.id}: ${status}にしました（${formatNumber(payout.coins)}コイン・${formatNumber(payout.yenAmount)}円）` : `${payout.id}: すでに${status}です（変更なし）`);
    return 0;
  } catch (error) {
    if (error instanceof PayoutError || error instanceof CoinError) {
      err(`${id}: ${payoutErrorMessage(error.code)}`);
      return 1;
    }
    throw error;
  }
}
