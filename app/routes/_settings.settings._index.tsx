import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { SignOutButton } from "~/components/sign-out-button";
import { requireProfile, requireUser } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { log } from "~/infra/logger.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("設定");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, profile } = await requireProfile(request, context);
  return { email: user.email, displayName: profile.displayName, discord: await discordLink(context) };
}

/**
 * The Discord account linked to this one, through supabase-js's getUserIdentities (the same call against hosted
 * Supabase and the embedded auth), and whether a password is set (an e-mail identity): without one, unlinking would
 * leave no way to sign in. Null when the auth server has no Discord.
 */
async function discordLink(context: LoaderFunctionArgs["context"]) {
  if (!context.auth.publicConfig.discord) return null;
  const { data, error } = await context.auth.supabase().auth.getUserIdentities();
  if (error || !data) {
    log.warn({ err: error }, "settings: could not read the identities");
    return null;
  }
  const identity = data.identities.find((entry) => entry.provider === "discord");
  const claims = (identity?.identity_data?.custom_claims ?? {}) as Record<string, unknown>;
  const name = identity ? String(claims.global_name ?? identity.identity_data?.full_name ?? identity.identity_data?.name ?? "") : null;
  return { linked: !!identity, name, hasPassword: data.identities.some((entry) => entry.provider === "email") };
}

/**
 * 「Discordを連携」: supabase-js's linkIdentity, to Discord's consent page and back to /auth/callback, which returns here
 * with a toast. 「連携を解除」: unlinkIdentity; the auth server refuses the last way to sign in, said as a toast.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  if (!context.auth.publicConfig.discord) throw new Response(messages.api.notFound, { status: 404 });
  const intent = (await readFormData(request)).get("intent");
  const supabase = context.auth.supabase();
  if (intent === "link-discord") {
    const site = context.config.SITE_URL ?? new URL(request.url).origin;
    const { data, error } = await supabase.auth.linkIdentity({
      provider: "discord",
      options: { redirectTo: `${site}/auth/callback?next=/settings`, scopes: "identify email guilds", skipBrowserRedirect: true },
    });
    if (error || !data.url) {
      log.warn({ err: error }, "settings: linkIdentity failed");
      throw await redirectWithToast(request, context.config, "/settings", { type: "error", title: error?.message ?? messages.auth.failed });
    }
    throw redirect(data.url);
  }
  if (intent === "unlink-discord") {
    const { data } = await supabase.auth.getUserIdentities();
    const identity = data?.identities.find((entry) => entry.provider === "discord");
    const { error } = identity ? await supabase.auth.unlinkIdentity(identity) : { error: null };
    const toast = error ? { type: "error" as const, title: error.status && error.status < 500 ? error.message : messages.auth.failed } : { type: "success" as const, title: messages.auth.discordUnlinked };
    throw await redirectWithToast(request, context.config, "/settings", toast);
  }
  throw new Response(messages.validation.checkInput, { status: 400 });
}

const ACCOUNT_LINKS = [
  { to: "/settings/password", label: "パスワードの変更", hint: "現在のパスワードを確認して変更します" },
  { to: "/settings/security", label: "セキュリティ", hint: "二段階認証とログイン中の端末" },
  { to: "/settings/email", label: "メールアドレスの変更", hint: "新しいアドレスに確認メールを送ります" },
  { to: "/settings/notifications", label: "通知メール", hint: "メールで受け取る通知を選べます" },
  { to: "/settings/coin-history", label: "コイン履歴", hint: "購入・利用・受け取りの記録" },
  { to: "/settings/reports", label: "通報の履歴", hint: "送った通報と対応状況" },
  { to: "/settings/privacy", label: "プライバシー", hint: "共通のDiscordサーバーの表示" },
  { to: "/settings/account", label: "退会", hint: "アカウントを削除します" },
] as const;

export default function SettingsPage() {
  const { email, displayName, discord } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="settings-title" className="space-y-6">
      <h1 id="settings-title" className="text-2xl font-bold">
        設定
      </h1>
      <dl className="divide-y divide-slate-100 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap justify-between gap-2 p-4">
          <dt className="font-semibold">メールアドレス</dt>
          <dd className="text-slate-600">{email}</dd>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 p-4">
          <dt className="font-semibold">表示名</dt>
          <dd className="flex items-center gap-3 text-slate-600">
            {displayName}
            <Link to="/mypage/gamer-edit" className="text-sm text-brand-600 underline">
              変更
            </Link>
          </dd>
        </div>
      </dl>
 {discord ? <DiscordLink {...discord} /> : null}
      <nav aria-label="アカウント" className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <ul className="divide-y divide-slate-100">
          {ACCOUNT_LINKS.map(({ to, label, hint }) => (
            <li key={to}>
              <Link to={to} className="flex flex-wrap items-center justify-between gap-2 p-4 hover:bg-slate-50">
                <span className="font-semibold text-brand-700">{label}</span>
                <span className="text-sm text-slate-600">{hint}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="sign-out-title" className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="sign-out-title" className="font-semibold">
          ログアウト
        </h2>
        <p className="text-sm text-slate-600">
          「ログアウト」はこの端末だけをログアウトします。ほかのスマートフォンやパソコンでもログアウトするときは「すべての端末からログアウト」を押してください。端末ごとのログアウトは
          <Link to="/settings/security" className="text-brand-600 underline">
            セキュリティ
          </Link>
          の「ログイン中の端末」からできます。
        </p>
        <div className="flex flex-wrap gap-3">
          <SignOutButton className="btn-secondary" />
          <SignOutButton className="btn-secondary" everywhere />
        </div>
      </section>
    </section>
  );
}

/** Discord連携: link, or the linked account's name and 「連携を解除」 (only when a password remains to sign in with). */
function DiscordLink({ linked, name, hasPassword }: { linked: boolean; name: string | null; hasPassword: boolean }) {
  const busy = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="discord-title" className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="discord-title" className="font-semibold">
        Discord連携
      </h2>
      {linked ? (
        <>
          <p className="text-sm text-slate-700" data-testid="discord-linked">
            {name ? `「${name}」` : "Discordアカウント"}と連携しています。Discordでログインできます。
          </p>
          {hasPassword ? (
            <Form method="post" reloadDocument>
              <button type="submit" name="intent" value="unlink-discord" className="btn-secondary" disabled={busy}>
                連携を解除
              </button>
            </Form>
          ) : (
            <p className="text-sm text-slate-600">
              ほかにログインする方法がないため、連携は解除できません。
              <Link to="/forgot-password" className="text-brand-700 underline">
                パスワードの再設定メール
              </Link>
              からパスワードを設定すると解除できます。
            </p>
          )}
        </>
      ) : (
        <>
          <p className="text-sm text-slate-600">連携すると、Discordでもログインできます。</p>
          <Form method="post" reloadDocument>
            <button type="submit" name="intent" value="link-discord" className="btn bg-[#5865F2] text-white hover:bg-[#4752c4]" disabled={busy}>
              Discordを連携
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
