import { parseArgs } from "node:util";
import type { Database } from "../app/infra/db/tables";
import { OPERATOR_ROLES, type OperatorRole } from "../app/lib/constants";
import { emailText } from "../app/lib/validation/fields";
import type { Operator } from "../app/models/operator-audit.server";
import { grantRole, isOperatorRole, listOperators, OperatorError, revokeRole, type RoleStore } from "../app/models/operators.server";
import { shellOperator } from "./operator-cli";

/**
 * The operators' roles from the command line (`npm run operators -- …`, docs/operations.md#operators, ADR 068), apart
 * from its entry (operators-cli.ts) so tests run it against their own database. The only way a role is given or taken:
 * each change needs a reason and leaves its row in `operator_audit`.
 */

export const OPERATORS_USAGE = `使い方: npm run operators -- <コマンド>
  list                                    運営者とその役割を表示
  grant EMAIL ROLE --reason "理由"          会員に役割を付与する
  revoke EMAIL ROLE --reason "理由"         会員の役割を外す
ROLE は ${OPERATOR_ROLES.join(" | ")}（moderator: 通報の判断と利用停止、finance: 振込申請、admin: その両方と役割の管理）。
付与と解除は --reason が必要で、監査記録（operator_audit）に残ります。`;

export type OperatorsCommand = { name: "list" } | { name: "grant" | "revoke"; email: string; role: OperatorRole; reason: string };

export function parseOperatorsArgs(args: readonly string[]): OperatorsCommand | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: { reason: { type: "string" } } });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const [name, email, role, ...rest] = parsed.positionals;
  const { reason } = parsed.values;
  if (rest.length) return { error: `余分な引数: ${rest.join(" ")}` };
  if (name === "list") return email === undefined && reason === undefined ? { name } : { error: "list に引数はいりません" };
  if (name !== "grant" && name !== "revoke") return { error: `不明なコマンド: ${name ?? "(なし)"}` };
  const address = emailText().safeParse(email ?? "");
  if (!address.success) return { error: `${name} には会員のメールアドレスを指定してください` };
  if (!isOperatorRole(role)) return { error: `役割は ${OPERATOR_ROLES.join("、")} のどれかです${role ? `（${role} ではなく）` : ""}` };
  const why = reason?.trim() ?? "";
  if (why === "" || why.length > 1000) return { error: `${name} には --reason "理由"（1〜1000文字）を指定してください` };
  return { name, email: address.data, role, reason: why };
}

const errorText: Record<OperatorError["code"], string> = {
  user_not_found: "このメールアドレスの会員が見つかりません（プロフィールを作った会員だけが運営者になれます）",
  already_granted: "この役割はすでに付与されています（変更なし）",
  not_granted: "この役割は付与されていません（変更なし）",
};

/**
 * Runs one command; answers the process's exit code (0 done, 1 bad usage or a refused change). `store` is where the
 * roles are kept (the embedded auth's column, or hosted GoTrue's); `local`: the embedded auth.
 */
export async function runOperatorsCommand(
  args: readonly string[],
  { db, store, local, operator = shellOperator(), out, err }: { db: Database; store: RoleStore; local: boolean; operator?: Operator; out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const command = parseOperatorsArgs(args);
  if ("error" in command) {
    err(command.error);
    err(OPERATORS_USAGE);
    return 1;
  }
  if (command.name === "list") {
    const operators = await listOperators(db, { store, local });
    if (operators.length === 0) out("運営者はいません（npm run operators -- grant EMAIL admin --reason \"…\" で最初の管理者を作ります）");
    for (const person of operators) out(`${person.displayName} (${person.id}) ${person.email ?? "(メールなし)"}  ${person.roles.join(", ")}`);
    if (operators.length > 0) out(`${operators.length}人`);
    return 0;
  }
  try {
    const change = { store, operator, email: command.email, role: command.role, reason: command.reason };
    const { user, roles } = command.name === "grant" ? await grantRole(db, change) : await revokeRole(db, change);
    out(`${user.displayName} (${user.id}): ${command.role} を${command.name === "grant" ? "付与" : "解除"}しました。現在の役割: ${roles.length > 0 ? roles.join(", ") : "なし"}`);
    return 0;
  } catch (error) {
    if (error instanceof OperatorError) {
      err(`${command.email}: ${errorText[error.code]}`);
      return 1;
    }
    throw error;
  }
}
