import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { ErrorList, TextareaField, TextField } from "~/components/forms";
import { IntentButton } from "~/components/intent-button";
import { Avatar } from "~/components/presence";
import { requireUser, safeRedirectPath } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { BIO_MAX, DISPLAY_NAME_MAX, GAME_RANK_MAX, UPLOAD_IMAGE_TYPES } from "~/lib/constants";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { profileSchema } from "~/lib/validation/profile";
import { listGames } from "~/models/game.server";
import { getProfile, saveProfile, UnknownGameError } from "~/models/user.server";

export const meta: MetaFunction = () => pageMeta("プロフィール編集");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const [profile, games] = await Promise.all([getProfile({ db: context.db, userId: user.id }), listGames({ db: context.db })]);
  return { profile, games, rules: formRules(profileSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: profileSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await saveProfile({ db: context.db, realtime: context.realtime, userId: user.id, email: user.email, input: submission.value });
  } catch (error) {
    if (!(error instanceof UnknownGameError)) throw error;
    return data({ result: submission.reply({ formErrors: [messages.validation.unknownGame] }) }, { status: 400 });
  }
  throw await redirectWithToast(request, context.config, safeRedirectPath(formData.get("redirectTo"), "/mypage"), {
    type: "success",
    title: messages.profile.saved,
  });
}

export default function GamerEditPage() {
  const { profile, games, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({
    id: "gamer-edit",
    lastResult,
    defaultValue: { displayName: profile?.displayName ?? "", bio: profile?.bio ?? "" },
    rules,
  });
  // What the form showed last: the rejected submission, else the saved profile.
  const submittedGames = (lastResult?.initialValue?.games as Array<{ slug?: string; rank?: string } | undefined> | undefined) ?? null;
  const chosen = new Map(
    submittedGames
      ? submittedGames.filter((game) => game?.slug).map((game) => [game!.slug!, game!.rank ?? ""])
      : (profile?.games ?? []).map((game) => [game.slug, game.rank]),
  );

  return (
    <section aria-labelledby="gamer-edit-title">
      <h1 id="gamer-edit-title" className="text-2xl font-bold">
        {profile ? "プロフィール編集" : "プロフィールを設定しましょう"}
      </h1>
      {profile ? null : (
        <p className="mt-2 text-slate-600">表示名と遊んでいるゲームを登録すると、GamerMatchのすべての機能が使えるようになります。</p>
      )}
      {profile ? <AvatarForms name={profile.displayName} avatarUrl={profile.avatarUrl} /> : null}
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <TextField meta={fields.displayName} label="表示名" hint={`${DISPLAY_NAME_MAX}文字以内`} autoComplete="nickname" />
        <TextareaField meta={fields.bio} label="自己紹介" hint={`${BIO_MAX}文字以内`} rows={4} />
        <fieldset>
          <legend className="field-label">遊んでいるゲームとランク</legend>
          <ul className="mt-2 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
            {games.map((game, index) => (
              // The home page's game cards link here, to the game's own row (below the sticky header).
              <li key={game.slug} id={`game-${game.slug}`} className="flex scroll-mt-20 flex-wrap items-center gap-3 px-3 py-2 target:bg-brand-50">
                <label className="flex min-w-48 flex-1 items-center gap-2">
                  <input type="checkbox" name={`games[${index}].slug`} value={game.slug} defaultChecked={chosen.has(game.slug)} className="size-4" />
                  {game.name}
                </label>
                <label className="sr-only" htmlFor={`rank-${game.slug}`}>
                  {game.name}のランク
                </label>
                <input
                  id={`rank-${game.slug}`}
                  name={`games[${index}].rank`}
                  defaultValue={chosen.get(game.slug) ?? ""}
                  maxLength={GAME_RANK_MAX}
                  placeholder="ランク・ロール（任意）"
                  className="field-input max-w-56 py-1 text-sm"
                />
              </li>
            ))}
          </ul>
          <ErrorList errors={fields.games.errors} />
        </fieldset>
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting}>
          {submitting ? "保存中…" : "保存する"}
        </button>
      </Form>
    </section>
  );
}

/**
 * The avatar: a picture uploaded on its own (a multipart form to /mypage/avatar: square, re-encoded, metadata
 * stripped), or removed. Plain forms, so they work before JavaScript loads.
 */
function AvatarForms({ name, avatarUrl }: { name: string; avatarUrl: string | null }) {
  return (
    <section aria-labelledby="avatar-title" className="mt-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="avatar-title" className="field-label">
        アバター画像
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <Avatar name={name} src={avatarUrl} size="lg" />
        <Form method="post" action="/mypage/avatar" encType="multipart/form-data" className="flex min-w-0 flex-1 flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <label htmlFor="avatar-file" className="text-sm text-slate-700">
              画像を選ぶ（JPEG / PNG / WebP / GIF、10MBまで・正方形に切り抜きます）
            </label>
            <input
              id="avatar-file"
              name="avatar"
              type="file"
              required
              accept={UPLOAD_IMAGE_TYPES.join(",")}
              className="field-file mt-1"
            />
          </div>
          <button type="submit" className="btn-secondary">
            アップロード
          </button>
        </Form>
        {avatarUrl ? (
          <IntentButton intent="remove" action="/mypage/avatar" className="text-sm text-slate-700 underline">
            画像を削除
          </IntentButton>
        ) : null}
      </div>
    </section>
  );
}
