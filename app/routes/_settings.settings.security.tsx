import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { ErrorList, TextField } from "~/components/forms";
import { SessionList } from "~/components/session-list";
import { EnrolmentSteps, RecoveryCodes, type Enrolment } from "~/components/two-step-setup";
import { authFormError, requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { totpKeyFor } from "~/infra/auth/totp";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import type { FormRules } from "~/lib/form-rules";
import { formRules } from "~/lib/form-rules.server";
import { formatDate } from "~/lib/time";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { PRODUCT_NAME } from "~/lib/constants";
import { loadSessionList } from "~/models/auth/session-list.server";
import { confirmFactorSchema, enrolSchema, removeFactorSchema, renewCodesSchema, securitySchema } from "~/lib/validation/mfa";
import { countRecoveryCodesLeft, recordFactorConfirmed, recordFactorRemoved, renewRecoveryCodes } from "~/models/two-step.server";

export const meta: MetaFunction = () => pageMeta("セキュリティ");

/**
 * 「セキュリティ」 (ADR 064): 二段階認証 with an authenticator app (supabase-js `auth.mfa`, the same calls against
 * hosted Supabase and the embedded auth), its recovery codes, and the account's signed-in devices.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const factors = await verifiedFactors(context);
  return {
    factors: factors.map((factor) => ({ id: factor.id, name: factor.friendly_name ?? "", createdAt: factor.created_at })),
    recoveryCodesLeft: factors.length > 0 ? await countRecoveryCodesLeft(context.db, user.id) : 0,
    // Read from the primary: the list just after a 「ログアウト」 must not show that session again.
    sessions: await loadSessionList({ db: context.db, user }),
    rules: { enrol: formRules(enrolSchema), confirm: formRules(confirmFactorSchema), remove: formRules(removeFactorSchema), renew: formRules(renewCodesSchema) },
  };
}

async function verifiedFactors(context: LoaderFunctionArgs["context"]) {
  const { data: listed } = await context.auth.supabase().auth.mfa.listFactors();
  return (listed?.totp ?? []).filter((factor) => factor.status === "verified");
}

/** supabase-js answers the QR code as a data: URI; the page draws its SVG inline (no image request, no CSP exception). */
const svgOf = (qrCode: string) => {
  const markup = qrCode.replace(/^data:image\/svg\+xml;utf-8,/, "");
  return markup.startsWith("<svg") && !/<script|on\w+=/i.test(markup) ? markup : "";
};

type Reply = { result: SubmissionResult<string[]>; enrolment?: Enrolment; recoveryCodes?: string[] };

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: securitySchema });
  const reply = (body: Omit<Reply, "result"> & { errors?: { form?: string[]; code?: string[] } } = {}, status = 200) => {
    const { errors, ...rest } = body;
    const result = submission.reply({ formErrors: errors?.form, fieldErrors: errors?.code ? { code: errors.code } : undefined, hideFields: ["code"] });
    return data<Reply>({ result, ...rest }, { status });
  };
  if (submission.status !== "success") return reply({}, 400);
  const value = submission.value;
  const mfa = context.auth.supabase().auth.mfa;
  /** A refusal of the auth server's as the form says it: a wrong code on its field, the rest above the button. */
  const refused = (error: { status?: number; code?: string; message: string }, extra: Omit<Reply, "result"> = {}) => {
    const { status, message } = authFormError(error);
    const onField = error.code === "mfa_verification_failed";
    return reply({ ...extra, errors: onField ? { code: [message] } : { form: [error.code === "mfa_factor_not_found" && value.intent === "confirm" ? messages.auth.mfaEnrolmentGone : message] } }, status);
  };

  switch (value.intent) {
    case "enroll": {
      const { data: enrolled, error } = await mfa.enroll({ factorType: "totp", friendlyName: value.friendlyName || undefined, issuer: PRODUCT_NAME });
      if (error) return refused(error);
      return reply({ enrolment: { factorId: enrolled.id, qrSvg: svgOf(enrolled.totp.qr_code), secret: enrolled.totp.secret, friendlyName: value.friendlyName ?? "" } });
    }
    case "confirm": {
      const { error } = await mfa.challengeAndVerify({ factorId: value.factorId, code: value.code });
      if (error) {
        // The same key again, so the app already scanned keeps working.
        const again = await totpKeyFor({ secret: value.secret, issuer: PRODUCT_NAME, accountName: user.email });
        return refused(error, error.code === "mfa_factor_not_found" ? {} : { enrolment: { factorId: value.factorId, qrSvg: again.qrCode, secret: value.secret, friendlyName: value.friendlyName ?? "" } });
      }
      const recoveryCodes = await recordFactorConfirmed(context.db, { user, friendlyName: value.friendlyName ?? "" });
      return reply({ recoveryCodes });
    }
    case "remove": {
      const factors = await verifiedFactors(context);
      const factor = factors.find((candidate) => candidate.id === value.factorId);
      if (!factor) return reply({ errors: { form: [messages.auth.mfaFactorNotFound] } }, 404);
      // Its own code first: a session left open on a shared computer cannot take the second step away.
      const verified = await mfa.challengeAndVerify({ factorId: factor.id, code: value.code });
      if (verified.error) return refused(verified.error);
      const { error } = await mfa.unenroll({ factorId: factor.id });
      if (error) return refused(error);
      await recordFactorRemoved(context.db, { user, friendlyName: factor.friendly_name ?? "", lastOne: factors.length === 1 });
      return reply({ errors: {} });
    }
    case "renewCodes": {
      const factor = (await verifiedFactors(context))[0];
      if (!factor) return reply({ errors: { form: [messages.auth.mfaFactorNotFound] } }, 404);
      const verified = await mfa.challengeAndVerify({ factorId: factor.id, code: value.code });
      if (verified.error) return refused(verified.error);
      return reply({ recoveryCodes: await renewRecoveryCodes(context.db, user.id) });
    }
  }
}

export default function SecurityPage() {
  const { factors, recoveryCodesLeft, sessions, rules } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const intent = reply?.result.initialValue?.intent;
  return (
    <section aria-labelledby="security-title" className="mx-auto max-w-2xl space-y-6">
      <h1 id="security-title" className="text-2xl font-bold">
        セキュリティ
      </h1>
      <section aria-labelledby="two-step-title" className="space-y-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="two-step-title" className="text-lg font-bold">
            二段階認証
          </h2>
          <span className={factors.length ? "rounded-full bg-emerald-50 px-3 py-1 text-sm text-emerald-800 ring-1 ring-emerald-200" : "rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700"} data-testid="two-step-status">
            {factors.length ? "有効" : "未設定"}
          </span>
        </div>
        <p className="text-sm text-slate-600">
          ログインのとき、パスワードに加えて認証アプリの確認コードを求めます。有効にすると、売上の振込申請と振込先の変更にも確認コードでのログインが必要になります。
        </p>
        {reply?.recoveryCodes ? <RecoveryCodes codes={reply.recoveryCodes} /> : null}
        {reply?.enrolment ? (
          <EnrolmentSteps enrolment={reply.enrolment} rules={rules.confirm} lastResult={intent === "confirm" ? reply.result : undefined} />
        ) : (
          <EnrolForm rules={rules.enrol} lastResult={intent === "enroll" ? reply?.result : undefined} more={factors.length > 0} />
        )}
        {factors.length ? (
          <ul className="divide-y divide-slate-200" aria-label="登録済みの認証アプリ">
            {factors.map((factor, i) => (
              <li key={factor.id} className="space-y-3 py-4">
                <p className="font-medium">
                  {factor.name || `認証アプリ ${i + 1}`} <span className="text-sm font-normal text-slate-500">（{formatDate(factor.createdAt)} に登録）</span>
                </p>
                <CodeForm id={`remove-${factor.id}`} intent="remove" factorId={factor.id} rules={rules.remove} lastResult={intent === "remove" && reply?.result.initialValue?.factorId === factor.id ? reply.result : undefined} label="削除する" />
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      {factors.length ? (
        <section aria-labelledby="recovery-title" className="space-y-3 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 id="recovery-title" className="text-lg font-bold">
            リカバリーコード
          </h2>
          <p className="text-sm text-slate-600" data-testid="recovery-codes-left">
            未使用のコード：{recoveryCodesLeft}個。新しく発行すると、以前のコードは使えなくなります。
          </p>
          <CodeForm id="renew-codes" intent="renewCodes" rules={rules.renew} lastResult={intent === "renewCodes" ? reply?.result : undefined} label="新しいコードを発行" />
        </section>
      ) : null}
      <SessionList sessions={sessions} />
    </section>
  );
}

function EnrolForm({ rules, lastResult, more }: { rules: FormRules; lastResult: SubmissionResult<string[]> | undefined; more: boolean }) {
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({ id: "enrol-factor", lastResult, rules });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="enroll" />
      <TextField meta={fields.friendlyName!} label="端末の名前（任意）" hint="例：iPhone、仕事用のAndroid" autoComplete="off" />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className={more ? "btn-secondary" : "btn-primary"} disabled={busy}>
        {busy ? "準備中…" : more ? "別の認証アプリを追加" : "認証アプリを設定する"}
      </button>
    </Form>
  );
}

/** A form that needs the app's current code: removing an app, renewing the recovery codes. */
function CodeForm({ id, intent, factorId, rules, lastResult, label }: { id: string; intent: string; factorId?: string; rules: FormRules; lastResult: SubmissionResult<string[]> | undefined; label: string }) {
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({ id, lastResult, rules });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value={intent} />
      {factorId ? <input type="hidden" name="factorId" value={factorId} /> : null}
      <div className="min-w-40 flex-1">
        <TextField meta={fields.code!} label="確認コード（6桁）" autoComplete="one-time-code" inputMode="numeric" />
      </div>
      <button type="submit" className="btn-secondary" disabled={busy}>
        {label}
      </button>
      <ErrorList id={form.errorId} errors={form.errors} />
    </Form>
  );
}
