import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useSearchParams, useLoaderData } from "@remix-run/react";
import { CredentialsForm } from "~/components/credentials-form";
import { DiscordSignIn } from "~/components/discord-sign-in";
import { afterSignIn, authFormError, redirectIfSignedIn } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { PASSWORD_MIN_LENGTH } from "~/lib/constants";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { signupSchema } from "~/lib/validation/auth";

export const meta: MetaFunction = () =>
  pageMeta("新規登録", "GamerMatchに無料で登録して、一緒にゲームを遊ぶ仲間を見つけましょう。");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  return { rules: formRules(signupSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: signupSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  const { email, password, redirectTo } = submission.value;
  const { data: signedUp, error } = await context.auth.supabase().auth.signUp({ email, password });
  if (error) {
    const { status, message } = authFormError(error);
    return data({ result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status });
  }
  // AUTH_CONFIRM_EMAIL: no session until the address is confirmed from the mail.
  if (!signedUp.session) throw redirect("/signup?sent=1");
  // A new account has no profile yet: set it up, then go where the visitor was headed.
  throw redirect(`/mypage/gamer-edit?${new URLSearchParams({ redirectTo: afterSignIn(redirectTo) })}`);
}

export default function SignupPage() {
  const { rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  return (
    <section className="mx-auto max-w-md rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="signup-title">
      <h1 id="signup-title" className="mb-6 text-2xl font-bold">
        新規登録
      </h1>
      {searchParams.get("sent") === "1" ? (
        <div role="status" className="mb-6 rounded-lg bg-emerald-50 p-4 text-emerald-900 ring-1 ring-emerald-200">
          <p>{messages.auth.signupConfirmSent}</p>
        </div>
      ) : null}
      <CredentialsForm
        id="signup"
        rules={rules}
        lastResult={lastResult}
        redirectTo={redirectTo}
        submitLabel="登録する"
        passwordHint={`${PASSWORD_MIN_LENGTH}文字以上`}
        passwordAutoComplete="new-password"
      />
      <DiscordSignIn redirectTo={redirectTo} />
      <p className="mt-4 text-xs text-slate-500">
        登録すると<Link to="/terms" className="underline">利用規約</Link>と
        <Link to="/privacy" className="underline">プライバシーポリシー</Link>に同意したものとみなされます。
      </p>
      <p className="mt-6 text-center text-sm text-slate-600">
        すでにアカウントをお持ちの方は{" "}
        <Link to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : "/login"} className="text-brand-600 underline">
          ログイン
        </Link>
      </p>
    </section>
  );
}
