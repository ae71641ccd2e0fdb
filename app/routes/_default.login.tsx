import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useSearchParams, useLoaderData } from "@remix-run/react";
import { CredentialsForm } from "~/components/credentials-form";
import { DiscordSignIn } from "~/components/discord-sign-in";
import { afterFirstStep, afterSignIn, authFormError, discordErrorMessage, redirectIfSignedIn } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { loginSchema } from "~/lib/validation/auth";

export const meta: MetaFunction = () =>
  pageMeta("ログイン", "GamerMatchにメールアドレスとパスワードでログインして、チャットや通知、コインの購入を利用できます。");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  // A Discord sign-in that did not happen comes back here with its kind (/auth/callback).
  const discordError = new URL(request.url).searchParams.get("error");
  return { rules: formRules(loginSchema), discordError: discordError ? discordErrorMessage(discordError) : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: loginSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }), suspended: false }, { status: 400 });
  const { email, password, redirectTo } = submission.value;
  const { data: signedIn, error } = await context.auth.supabase().auth.signInWithPassword({ email, password });
  if (error) {
    const { status, message } = authFormError(error);
    // A suspended or banned account (ADR 030): the message says until when; the page links to the inquiry form.
    const suspended = error.code === "user_banned";
    return data({ result: submission.reply({ formErrors: [message], hideFields: ["password"] }), suspended }, { status });
  }
  // The session cookies were written on this response by @supabase/ssr. An account with an authenticator app goes on
  // to its code first.
  throw redirect(await afterFirstStep(context, signedIn.session, afterSignIn(redirectTo)));
}

export default function LoginPage() {
  const { rules, discordError } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.result;
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  return (
    <section className="mx-auto max-w-md rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="login-title">
      <h1 id="login-title" className="mb-6 text-2xl font-bold">
        ログイン
      </h1>
      {discordError ? (
        <p role="alert" className="mb-6 rounded-lg bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-200" data-testid="discord-error">
          {discordError}
        </p>
      ) : null}
      <CredentialsForm
        id="login"
        rules={rules}
        lastResult={lastResult}
        redirectTo={redirectTo}
        submitLabel="ログイン"
        passwordAutoComplete="current-password"
      />
      {actionData?.suspended ? (
        <p className="mt-3 text-sm">
          <Link to="/inquiry" className="text-brand-600 underline">
            {messages.moderation.inquiryLink}
          </Link>
        </p>
      ) : null}
      <p className="mt-4 text-right text-sm">
        <Link to="/forgot-password" className="text-brand-600 underline">
          パスワードをお忘れの方
        </Link>
      </p>
      <DiscordSignIn redirectTo={redirectTo} />
      <p className="mt-6 text-center text-sm text-slate-600">
        アカウントをお持ちでない方は{" "}
        <Link to={redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup"} className="text-brand-600 underline">
          新規登録
        </Link>
      </p>
    </section>
  );
}
