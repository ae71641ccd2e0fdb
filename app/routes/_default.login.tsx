import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useRouteLoaderData, useSearchParams, useLoaderData } from "@remix-run/react";
import { CredentialsForm } from "~/components/credentials-form";
import { afterSignIn, authFormError, redirectIfSignedIn } from "~/lib/auth.server";
import { formRules } from "~/lib/form-rules.server";
import { pageMeta } from "~/lib/meta";
import { loginSchema } from "~/lib/schemas";
import type { loader as rootLoader } from "~/root";
import { readFormData } from "~/lib/forms.server";

export const meta: MetaFunction = () =>
  pageMeta("ログイン", "GamerMatchにメールアドレスとパスワードでログインして、チャットや通知、コインの購入を利用できます。");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  return { rules: formRules(loginSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: loginSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  const { email, password, redirectTo } = submission.value;
  const { error } = await context.auth.supabase().auth.signInWithPassword({ email, password });
  if (error) {
    const { status, message } = authFormError(error);
    return data({ result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status });
  }
  // The session cookies were written on this response by @supabase/ssr.
  throw redirect(afterSignIn(redirectTo));
}

export default function LoginPage() {
  const { rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  const discord = useRouteLoaderData<typeof rootLoader>("root")?.auth.discord;
  return (
    <section className="mx-auto max-w-md rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="login-title">
      <h1 id="login-title" className="mb-6 text-2xl font-bold">
        ログイン
      </h1>
      <CredentialsForm
        id="login"
        rules={rules}
        lastResult={lastResult}
        redirectTo={redirectTo}
        submitLabel="ログイン"
        passwordAutoComplete="current-password"
      />
      {discord ? (
        <Form method="post" action="/auth/discord" className="mt-4">
          <button type="submit" className="btn w-full bg-[#5865F2] text-white hover:bg-[#4752c4]">
            Discordでログイン
          </button>
        </Form>
      ) : null}
      <p className="mt-6 text-center text-sm text-slate-600">
        アカウントをお持ちでない方は{" "}
        <Link to={redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup"} className="text-brand-600 underline">
          新規登録
        </Link>
      </p>
    </section>
  );
}
