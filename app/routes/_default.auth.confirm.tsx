import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList } from "~/components/forms";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { confirmLinkSchema, type ConfirmLinkType } from "~/lib/validation/account";

export const meta: MetaFunction = () => [...pageMeta("メールのリンクの確認"), { name: "robots", content: "noindex" }];

const PAGES: Record<ConfirmLinkType, { title: string; lead: string; action: string; again: { to: string; label: string } }> = {
  recovery: {
    title: "パスワードの再設定",
    lead: "下のボタンを押すと、新しいパスワードを設定する画面に進みます。",
    action: "パスワードを再設定する",
    again: { to: "/forgot-password", label: "再設定メールをもう一度送る" },
  },
  signup: {
    title: "メールアドレスの確認",
    lead: "下のボタンを押すと、メールアドレスの確認が完了し、ログインします。",
    action: "メールアドレスを確認する",
    again: { to: "/login", label: "ログインへ" },
  },
  email_change: {
    title: "新しいメールアドレスの確認",
    lead: "下のボタンを押すと、メールアドレスの変更が完了します。",
    action: "メールアドレスを確認する",
    again: { to: "/settings/email", label: "メールアドレスの変更をやり直す" },
  },
};

/**
 * Where a mailed one-time link lands (the recovery, sign-up and new-address mails). Opening it changes nothing: mail
 * scanners open links too. One press of the button spends the token through supabase-js `verifyOtp`, which signs this
 * browser in, then the page goes on to what the link was for.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const link = confirmLinkSchema.safeParse({ token_hash: params.get("token_hash"), type: params.get("type") });
  if (!link.success) return data({ link: null }, { status: 400 });
  return { link: link.data };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: confirmLinkSchema });
  if (submission.status !== "success") return data({ error: messages.auth.linkInvalid, type: null }, { status: 400 });
  const { token_hash, type } = submission.value;
  const { error } = await context.auth.supabase().auth.verifyOtp({ type, token_hash });
  if (error) {
    const status = error.status === 429 ? 429 : 400;
    return data({ error: error.status && error.status < 500 ? error.message : messages.auth.failed, type }, { status });
  }
  if (type === "recovery") throw redirect("/reset-password");
  if (type === "signup") {
    throw await redirectWithToast(request, context.config, "/mypage/gamer-edit", { type: "success", title: messages.auth.emailConfirmed });
  }
  throw await redirectWithToast(request, context.config, "/settings", { type: "success", title: messages.auth.emailChanged });
}

export default function ConfirmLinkPage() {
  const { link } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";
  const page = link ? PAGES[link.type] : null;
  const again = PAGES[result?.type ?? link?.type ?? "recovery"].again;
  return (
    <section className="mx-auto max-w-md rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="confirm-title">
      <h1 id="confirm-title" className="mb-4 text-2xl font-bold">
        {page?.title ?? "メールのリンク"}
      </h1>
      {!link || result?.error ? (
        <>
          <ErrorList errors={[result?.error ?? messages.auth.linkInvalid]} />
          <p className="mt-5">
            <Link to={again.to} className="text-brand-600 underline">
              {again.label}
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" className="space-y-5">
          <p className="text-slate-700">{page!.lead}</p>
          <input type="hidden" name="token_hash" value={link.token_hash} />
          <input type="hidden" name="type" value={link.type} />
          <button type="submit" className="btn-primary w-full" disabled={submitting}>
            {submitting ? "確認中…" : page!.action}
          </button>
        </Form>
      )}
    </section>
  );
}
