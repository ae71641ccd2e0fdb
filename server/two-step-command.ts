import { parseArgs } from "node:util";
import type { Database } from "../app/infra/db/tables";
import { formatDateTime } from "../app/lib/time";
import { uuidParam } from "../app/lib/validation/fields";
import type { Operator } from "../app/models/operator-audit.server";
import { secondStepStatus, turnSecondStepOff } from "../app/models/two-step.server";
import { shellOperator } from "./operator-cli";

/**
 * The operator's command for a gamer locked out of 二段階認証 (`npm run two-step -- …`, docs/operations.md#two-step-sign-in,
 * ADR 064), apart from its entry (two-step-cli.ts) so tests run it against their own database.
 */

export const TWO_STEP_USAGE = `使い方: npm run two-step -- <コマンド>
  show USER_ID                 二段階認証の状態: 認証アプリ、未使用のリカバリーコードの数
  off USER_ID --reason "理由"   二段階認証を解除する（認証アプリとリカバリーコードを削除し、本人にメールで知らせる）
本人確認（登録メールアドレスからのお問い合わせ、直近の取引内容など）を済ませてから実行してください。`;

export type TwoStepCommand = { name: "show"; userId: string } | { name: "off"; userId: string; reason: string };

export function parseTwoStepArgs(args: readonly string[]): TwoStepCommand | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: { reason: { type: "string" } } });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const [name, id, ...rest] = parsed.positionals;
  if (rest.length) return { error: `余分な引数: ${rest.join(" ")}` };
  const userId = uuidParam.safeParse(id);
  if (name !== "show" && name !== "off") return { error: `不明なコマンド: ${name ?? "(なし)"}` };
  if (!userId.success) return { error: `${name} にはユーザーID（UUID）を指定してください` };
  if (name === "show") return parsed.values.reason === undefined ? { name, userId: userId.data } : { error: "show に --reason はいりません" };
  const reason = parsed.values.reason?.trim() ?? "";
  if (reason === "" || reason.length > 1000) return { error: "off には --reason \"理由\"（1〜1000文字）を指定してください" };
  return { name, userId: userId.data, reason };
}

/** Runs one command; answers the process's exit code. `local`: the embedded auth (no SUPABASE_URL). */
export async function runTwoStepCommand(
  args: readonly string[],
  {
    db,
    local,
    operator = shellOperator(),
    out,
    err,
  }: { db: Database; local: boolean; /** Who the audit trail names (the shell's user). */ operator?: Operator; out: (line: string) => void; err: (line: string) => void },
) {
  const command = parseTwoStepArgs(args);
  if ("error" in command) {
    err(command.error);
    err(TWO_STEP_USAGE);
    return 1;
  }
  if (command.name === "show") {
    const status = await secondStepStatus(db, { userId: command.userId, local });
    if (!status) {
      err(`${command.userId}: ユーザーが見つかりません`);
      return 1;
    }
    out(`${status.display_name} (${status.id}) ${status.email ?? "(メールなし)"}`);
    out(`二段階認証: ${status.second_step_required ? "有効" : "未設定"}  未使用のリカバリーコード: ${status.recoveryCodesLeft}個`);
    if (status.factors === null) out("認証アプリ: Supabase のダッシュボード（Authentication → Users）で確認してください");
    for (const factor of status.factors ?? []) out(`  認証アプリ「${factor.friendly_name || "(名前なし)"}」 ${factor.status === "verified" ? "確認済み" : "未確認"} ${formatDateTime(factor.created_at)} に登録`);
    return 0;
  }
  const result = await turnSecondStepOff(db, { userId: command.userId, local, operator, reason: command.reason });
  if (!result) {
    err(`${command.userId}: ユーザーが見つかりません`);
    return 1;
  }
  out(`二段階認証を解除しました: 認証アプリ ${result.factorsRemoved}件、リカバリーコード ${result.codesRemoved}件を削除${result.wasRequired ? "し、本人にメールで知らせました" : "しました"}`);
  if (!local) out("Supabase のダッシュボード（Authentication → Users → このユーザー → MFA factors）で認証アプリも削除してください");
  return 0;
}
