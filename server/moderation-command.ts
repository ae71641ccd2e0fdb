import { parseArgs } from "node:util";
import type { AppConfig } from "../app/infra/config";
import type { Database } from "../app/infra/db/tables";
import type { ImageStorage } from "../app/infra/storage";
import { formatNumber } from "../app/lib/format";
import { messages } from "../app/lib/messages";
import { formatDateTime } from "../app/lib/time";
import { uuidParam } from "../app/lib/validation/fields";
import { readMediaForOperator } from "../app/models/media.server";
import { getReportDetail, listOpenReports } from "../app/models/moderation-queue.server";
import { restore, stopUser } from "../app/models/moderation-sanctions.server";
import { dismissReport, hideReported, ModerationError, type DecisionOutcome } from "../app/models/moderation.server";
import type { Operator } from "../app/models/operator-audit.server";
import { shellOperator } from "./operator-cli";

/**
 * The operator's moderation command (`npm run moderation -- …`, docs/product.md#trust-and-safety, ADR 030), apart from its entry
 * (moderation-cli.ts) so tests run it against their own database. Like `npm run payouts` it has no realtime server:
 * reporters' notifications are stored (they see them in the list), and a suspension reaches the server's sockets
 * through the database (NOTIFY sessions_ended).
 */

export const MODERATION_USAGE = `使い方: npm run moderation -- <コマンド>
  list                                   未対応の通報を対象ごとに、通報の多い順に表示（理由の内訳・外部取引の警告回数つき）
  show ID                                通報の詳細: 対象の内容と持ち主、同じ対象へのほかの通報、持ち主の処分履歴
  hide ID --reason "理由"                 通報された投稿・メッセージ・チケット・レビューを非表示にする（ユーザーの通報は不可）
  dismiss ID --reason "理由"              対応せずに閉じる
  suspend USER_ID --days N --reason "理由" 利用停止（N日間）: ログアウト・出品停止・進行中の予約のキャンセルと返金・振込申請の保留
  ban USER_ID --reason "理由"             無期限の利用停止（suspend と同じ処理）
  restore ID|USER_ID --reason "理由"      非表示を戻す、または利用停止を解除する（返金済みの予約は戻らない）
ID は通報の番号（POST /api/reports の data.report.id）。判断はどれも --reason が必要で、同じ対象の未対応の通報はまとめて対応済みになり、通報者に通知されます。`;

export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

export type ModerationCommand =
  | { name: "list" }
  | { name: "show"; reportId: number }
  | { name: "hide" | "dismiss"; reportId: number; reason: string }
  | { name: "restore"; reportId?: number; userId?: string; reason: string }
  | { name: "suspend"; userId: string; days: number; reason: string }
  | { name: "ban"; userId: string; reason: string };

const DAYS_MAX = 3650;
const reportIdOf = (value: string | undefined) => (value && /^[1-9]\d{0,17}$/.test(value) ? Number(value) : null);
const userIdOf = (value: string | undefined) => {
  const parsed = uuidParam.safeParse(value);
  return parsed.success ? parsed.data : null;
};

/**
 * The command these arguments ask for, or a reason it is none (then print it with MODERATION_USAGE and exit 1). A
 * decision without `--reason`, or with only spaces, is refused here, before the database is opened.
 */
export function parseModerationArgs(args: readonly string[]): ModerationCommand | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: { reason: { type: "string" }, days: { type: "string" } } });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const [name, id, ...rest] = parsed.positionals;
  const { reason, days } = parsed.values;
  if (rest.length) return { error: `余分な引数: ${rest.join(" ")}` };
  if (name === "list") return id === undefined && reason === undefined && days === undefined ? { name } : { error: "list に引数はいりません" };
  if (name === "show") {
    const reportId = reportIdOf(id);
    return reportId !== null && reason === undefined && days === undefined ? { name, reportId } : { error: "show には通報の番号を1つ指定してください" };
  }
  if (!["hide", "dismiss", "restore", "suspend", "ban"].includes(name ?? "")) return { error: `不明なコマンド: ${name ?? "(なし)"}` };
  if (reason === undefined || reason.trim() === "") return { error: messages.moderation.errors.reason_required };
  if (reason.trim().length > 1000) return { error: messages.moderation.errors.reason_required };
  if (name !== "suspend" && days !== undefined) return { error: "--days は suspend だけに指定できます" };
  switch (name) {
    case "hide":
    case "dismiss": {
      const reportId = reportIdOf(id);
      return reportId !== null ? { name, reportId, reason } : { error: `${name} には通報の番号を指定してください` };
    }
    case "restore": {
      const reportId = reportIdOf(id);
      if (reportId !== null) return { name, reportId, reason };
      const userId = userIdOf(id);
      return userId ? { name, userId, reason } : { error: "restore には通報の番号かユーザーIDを指定してください" };
    }
    case "suspend":
    case "ban": {
      const userId = userIdOf(id);
      if (!userId) return { error: `${name} にはユーザーID（UUID）を指定してください` };
      if (name === "ban") return { name, userId, reason };
      const n = days !== undefined && /^\d{1,4}$/.test(days) ? Number(days) : NaN;
      if (!(n >= 1 && n <= DAYS_MAX)) return { error: `suspend には --days N（1〜${DAYS_MAX}の整数）を指定してください` };
      return { name, userId, days: n, reason };
    }
  }
  return { error: `不明なコマンド: ${name}` };
}

const reasonLabel = (reason: string) => messages.reports.reasonLabels[reason as keyof typeof messages.reports.reasonLabels] ?? reason;
const targetLabel = (type: string) => messages.reports.targetLabels[type as keyof typeof messages.reports.targetLabels] ?? type;
const statusLabel = (status: string) => messages.reports.statusLabels[status as keyof typeof messages.reports.statusLabels] ?? status;
const indent = (text: string) => text.split("\n").map((line) => `    ${line}`);

function describeOutcome(outcome: DecisionOutcome, out: (line: string) => void) {
  const { action } = outcome;
  const what = { hide: "非表示にしました", dismiss: "対応なしで閉じました", suspend: "利用停止にしました", ban: "無期限の利用停止にしました", restore: "元に戻しました" }[action.action];
  out(`処分 #${action.id}: ${what}${action.until ? `（${formatDateTime(action.until)}まで）` : ""}${outcome.changed ? "" : "（すでに非表示でした）"}`);
  if (outcome.reportsDecided) out(`  通報 ${outcome.reportsDecided}件を判断済みにし、通報者に通知しました`);
  if (outcome.sessionsRevoked) out(`  セッション ${outcome.sessionsRevoked}件を終了しました（接続中のソケットはサーバーが閉じます）`);
  if (outcome.listingsPaused) out(`  チケット ${outcome.listingsPaused}件を停止しました`);
  for (const booking of outcome.bookingsCancelled) out(`  予約 ${booking.id} をキャンセルし、${formatNumber(booking.refunded)}コインを購入者 ${booking.buyerId} に返金しました`);
  if (outcome.payoutsHeld) out(`  振込申請 ${outcome.payoutsHeld}件を保留にしました`);
  if (outcome.listingsReactivated) out(`  停止していたチケット ${outcome.listingsReactivated}件を再開しました`);
  if (outcome.payoutsRequestedAgain) out(`  保留中の振込申請 ${outcome.payoutsRequestedAgain}件を申請中に戻しました`);
}

/** Runs one command; answers the process's exit code (0 done, 1 bad usage or a refused decision). */
export async function runModerationCommand(
  args: readonly string[],
  {
    db,
    out,
    err,
    now,
    operator = shellOperator(),
    media,
  }: {
    db: Database;
    now?: Date;
    /** Who the audit trail names (the shell's user). */
    operator?: Operator;
    /** The image store: `show` gives a way to view a reported picture, `hide` removes a hidden message's (ADR 070). */
    media?: { storage: ImageStorage; config: Pick<AppConfig, "DATA_DIR"> };
  } & Output,
): Promise<number> {
  const command = parseModerationArgs(args);
  if ("error" in command) {
    err(command.error);
    err(MODERATION_USAGE);
    return 1;
  }
  try {
    switch (command.name) {
      case "list": {
        const groups = await listOpenReports({ db });
        if (groups.length === 0) {
          out("未対応の通報はありません");
          return 0;
        }
        for (const group of groups) {
          const reasons = Object.entries(group.reasons)
            .map(([reason, count]) => `${reasonLabel(reason)} ${count}`)
            .join("、");
          out(`${group.count}件  ${targetLabel(group.targetType)} ${group.targetId}  持ち主: ${group.targetUserName} (${group.targetUserId})`);
          out(`  理由: ${reasons}  外部取引の警告: ${group.offPlatformFlags}回  最初の通報: ${formatDateTime(group.firstReportedAt)}`);
          out(`  通報ID: ${group.reportIds.join(", ")}`);
        }
        out(`${groups.length}件の対象`);
        return 0;
      }
      case "show": {
        const detail = await getReportDetail({ db, reportId: command.reportId });
        if (!detail) {
          err(`${command.reportId}: ${messages.moderation.errors.report_not_found}`);
          return 1;
        }
        const { report, content, owner } = detail;
        out(`通報 #${report.id}（${statusLabel(report.status)}）${formatDateTime(report.createdAt)}  通報者: ${report.reporterName} (${report.reporterId})`);
        out(`  対象: ${targetLabel(report.targetType)} ${report.targetId}  理由: ${reasonLabel(report.reason)}`);
        if (report.note) for (const line of ["  メモ:", ...indent(report.note)]) out(line);
        out(`内容${content?.hiddenAt ? `（${formatDateTime(content.hiddenAt)}に非表示）` : ""}:`);
        for (const line of content ? indent(content.text || "(本文なし)") : ["    (削除済み)"]) out(line);
        const picture = media ? await readMediaForOperator({ db, ...media, reportId: report.id }) : undefined;
        if (picture) {
          out(`  画像: ${picture.path}（${picture.width}×${picture.height}、${picture.contentType}）`);
          if (picture.viewUrl) out(`  表示用URL: ${picture.viewUrl}${picture.viewUrl.startsWith("http") && picture.path.startsWith("/media/") ? "（5分間有効）" : ""}`);
          if (picture.file) out(`  ファイル: ${picture.file}`);
        }
        const state = owner.left
          ? "退会済み"
          : owner.bannedAt
            ? `無期限の利用停止中（${formatDateTime(owner.bannedAt)}から）`
            : owner.suspendedUntil && owner.suspendedUntil.getTime() > (now ?? new Date()).getTime()
              ? `${formatDateTime(owner.suspendedUntil)}まで利用停止中`
              : "利用中";
        out(`持ち主: ${owner.displayName} (${owner.id})  ${state}  外部取引の警告: ${owner.offPlatformFlags}回${owner.heldPayouts ? `  保留中の振込申請: ${owner.heldPayouts}件` : ""}`);
        out(`同じ対象へのほかの通報: ${detail.otherReports.length}件`);
        for (const other of detail.otherReports) out(`  #${other.id} ${formatDateTime(other.createdAt)} ${reasonLabel(other.reason)}（${statusLabel(other.status)}）${other.note ? ` ${other.note.replace(/\s+/g, " ")}` : ""}`);
        out(`持ち主の処分履歴: ${detail.history.length}件`);
        for (const action of detail.history) {
          out(`  #${action.id} ${formatDateTime(action.created_at)} ${action.action}${action.until ? `（${formatDateTime(action.until)}まで）` : ""}${action.report_id ? ` 通報#${action.report_id}` : ""}: ${action.reason}`);
        }
        return 0;
      }
      case "hide":
        describeOutcome(await hideReported({ db, operator, reportId: command.reportId, reason: command.reason, now, storage: media?.storage }), out);
        return 0;
      case "dismiss":
        describeOutcome(await dismissReport({ db, operator, reportId: command.reportId, reason: command.reason, now }), out);
        return 0;
      case "restore":
        describeOutcome(await restore({ db, operator, reportId: command.reportId, userId: command.userId, reason: command.reason, now }), out);
        return 0;
      case "suspend":
        describeOutcome(await stopUser({ db, operator, userId: command.userId, days: command.days, reason: command.reason, now }), out);
        return 0;
      case "ban":
        describeOutcome(await stopUser({ db, operator, userId: command.userId, reason: command.reason, now }), out);
        return 0;
    }
  } catch (error) {
    if (error instanceof ModerationError) {
      err(`${args[1] ?? ""}: ${messages.moderation.errors[error.code]}`);
      return 1;
    }
    throw error;
  }
}
