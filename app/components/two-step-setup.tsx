import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import type { FormRules } from "~/lib/form-rules";
import { ErrorList, TextField } from "./forms";

/** An enrolment under way: the QR code drawn on the server (SVG markup), the key as text, and the factor to confirm. */
export interface Enrolment {
  factorId: string;
  qrSvg: string;
  secret: string;
  friendlyName: string;
}

/**
 * /settings/security's enrolment (ADR 064): scan the QR code (or type the key), then confirm with the app's first
 * code. Plain forms: the QR code is inline SVG, the key selectable text; JavaScript only adds a copy button.
 */
export function EnrolmentSteps({ enrolment, rules, lastResult }: { enrolment: Enrolment; rules: FormRules; lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({ id: "confirm-factor", lastResult, rules });
  return (
    <div className="space-y-5" data-testid="enrolment">
      <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
        <li>スマートフォンの認証アプリ（Google Authenticator、Microsoft Authenticator、1Password など）で、下のQRコードを読み取ります。</li>
        <li>アプリに表示された6桁の確認コードを入力して、設定を完了します。</li>
      </ol>
      <div
        role="img"
        aria-label="認証アプリに登録するためのQRコード"
        className="mx-auto w-48 max-w-full rounded-lg bg-white p-2 ring-1 ring-slate-200 [&>svg]:h-auto [&>svg]:w-full"
        // Markup our own server drew (qrcode, app/infra/auth/totp.ts, or GoTrue's): never the visitor's input.
        dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
      />
      <SecretKey secret={enrolment.secret} />
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="factorId" value={enrolment.factorId} />
        <input type="hidden" name="secret" value={enrolment.secret} />
        <input type="hidden" name="friendlyName" value={enrolment.friendlyName} />
        <TextField meta={fields.code!} label="確認コード（6桁）" autoComplete="one-time-code" inputMode="numeric" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
          {busy ? "確認中…" : "確認して有効にする"}
        </button>
      </Form>
    </div>
  );
}

/** The key for typing into the app by hand, in groups of four; a copy button once JavaScript runs. */
function SecretKey({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  const [canCopy, setCanCopy] = useState(false);
  useEffect(() => setCanCopy(!!navigator.clipboard), []);
  return (
    <div className="space-y-1 text-sm">
      <p className="text-slate-600">QRコードを読み取れない場合は、このキーを入力してください。</p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="rounded bg-slate-100 px-2 py-1 font-mono break-all select-all" data-testid="totp-secret" data-secret={secret}>
          {secret.match(/.{1,4}/g)?.join(" ")}
        </code>
        {canCopy ? (
          <button
            type="button"
            className="btn-secondary px-3 py-1 text-xs"
            onClick={() => navigator.clipboard.writeText(secret).then(() => setCopied(true), () => setCopied(false))}
          >
            {copied ? "コピーしました" : "コピー"}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The ten recovery codes, shown once: as a list, and as a text file to download (a data: link, no script needed). */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const file = `GamerMatch リカバリーコード\n各コードは1回だけ使えます。\n\n${codes.join("\n")}\n`;
  return (
    <div className="space-y-3 rounded-lg bg-amber-50 p-4 ring-1 ring-amber-200" data-testid="recovery-codes">
      <h3 className="font-bold">リカバリーコード</h3>
      <p className="text-sm text-amber-900">
        スマートフォンをなくしたときは、このコードでログインできます（各コード1回限り）。この画面を離れると二度と表示されません。安全な場所に保存してください。
      </p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`} download="gamermatch-recovery-codes.txt" className="btn-secondary inline-block">
        テキストファイルで保存
      </a>
    </div>
  );
}
