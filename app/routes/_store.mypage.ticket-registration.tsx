import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CoinSlider } from "~/components/coin-slider";
import { ErrorList, SelectField, TextareaField, TextField } from "~/components/forms";
import { HiddenBadge } from "~/components/moderation-slots";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { LISTING_DESCRIPTION_MAX, LISTING_MAX_UNITS, LISTING_MINUTES, LISTING_PRICE_MIN, LISTING_TITLE_MAX, LISTINGS_PER_SELLER_MAX } from "~/lib/constants";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { listingErrorMessage } from "~/lib/error-messages";
import { formRules } from "~/lib/form-rules.server";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { uuidParam } from "~/lib/validation/fields";
import { listingSchema, listingStatusFormSchema } from "~/lib/validation/listing";
import { listGames } from "~/models/game.server";
import { ListingError, getListing, listListings, updateListing, createListing } from "~/models/listings.server";

export const meta: MetaFunction = () => pageMeta("チケット登録");

const statusLabels = { active: "受付中", paused: "受付停止中", archived: "アーカイブ済み" } as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const editId = uuidParam.safeParse(new URL(request.url).searchParams.get("edit") ?? undefined);
  const [games, own, editing] = await Promise.all([
    listGames({ db: context.db }),
    listListings({ db: context.db, sellerId: user.id, own: true, viewerId: user.id, limit: LISTINGS_PER_SELLER_MAX, offset: 0 }),
    editId.success ? getListing({ db: context.db, listingId: editId.data, viewerId: user.id }) : null,
  ]);
  return { rules: formRules(listingSchema), games, listings: own.listings, editing: editing && editing.seller.uid === user.id && editing.status !== "archived" ? editing : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const formData = await readFormData(request);
  if (formData.get("intent") === "status") {
    const form = listingStatusFormSchema.safeParse(Object.fromEntries(formData));
    if (!form.success) return data({ result: null, statusError: messages.validation.checkInput }, { status: 400 });
    try {
      await updateListing({ db: context.db, sellerId: user.id, listingId: form.data.listingId, input: { status: form.data.status } });
    } catch (error) {
      if (!(error instanceof ListingError)) throw error;
      return data({ result: null, statusError: listingErrorMessage(error.code) }, { status: error.status });
    }
    const title = { active: messages.listings.resumed, paused: messages.listings.paused, archived: messages.listings.archived }[form.data.status];
    throw await redirectWithToast(request, context.config, "/mypage/ticket-registration", { type: "success", title });
  }

  const submission = parseWithZod(formData, { schema: listingSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), statusError: null }, { status: 400 });
  const listingId = uuidParam.safeParse(formData.get("listingId") ?? undefined);
  try {
    const listing = listingId.success
      ? await updateListing({ db: context.db, sellerId: user.id, listingId: listingId.data, input: submission.value })
      : await createListing({ db: context.db, sellerId: user.id, input: submission.value });
    throw await redirectWithToast(request, context.config, `/tickets/${listing.id}`, { type: "success", title: messages.listings.saved });
  } catch (error) {
    if (!(error instanceof ListingError)) throw error;
    return data({ result: submission.reply({ formErrors: [listingErrorMessage(error.code)] }), statusError: null }, { status: error.status });
  }
}

export default function ListingRegistrationPage() {
  const { games, listings, editing, rules } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.result ?? undefined;
  const submitting = useNavigation().state !== "idle";
  const [form, fields] = useConstraintForm({
    id: editing ? `listing-${editing.id}` : "listing-new",
    lastResult,
    defaultValue: editing
      ? {
          title: editing.title,
          gameSlug: editing.game.slug,
          description: editing.description,
          pricePerUnit: String(editing.pricePerUnit),
          minutesPerUnit: String(editing.minutesPerUnit),
          maxUnits: String(editing.maxUnits),
        }
      : { minutesPerUnit: "60", maxUnits: "2", pricePerUnit: "500" },
    rules,
  });
  const submittedPrice = Number(lastResult?.initialValue?.pricePerUnit ?? editing?.pricePerUnit ?? 500);

  return (
    <section aria-labelledby="registration-title" className="space-y-8">
      <div>
        <h1 id="registration-title" className="text-2xl font-bold">
          チケット登録
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          一緒に遊ぶ時間をチケットとして出品できます。購入されるとコインは取引完了まで預かられ、完了後に売上として受け取れます。
        </p>
        <p className="mt-1 text-sm">
          <Link to="/settings/store/transfer" className="text-brand-700 underline">
            売上コインの振込申請
          </Link>
        </p>
      </div>

      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <h2 className="text-lg font-bold">{editing ? `「${editing.title}」を編集` : "新しいチケット"}</h2>
        {editing ? <input type="hidden" name="listingId" value={editing.id} /> : null}
        <SelectField meta={fields.gameSlug} label="ゲーム" options={games.map((game) => ({ value: game.slug, label: game.name }))} />
        <TextField meta={fields.title} label="タイトル" hint={`${LISTING_TITLE_MAX}文字以内（例：ランク戦を一緒に回します）`} />
        <TextareaField meta={fields.description} label="説明" hint={`${LISTING_DESCRIPTION_MAX}文字以内（任意）：できること、ボイスチャットの有無など`} rows={4} />
        <CoinSlider
          key={form.key + String(submittedPrice)}
          name={fields.pricePerUnit.name}
          label="1枠あたりの価格"
          min={LISTING_PRICE_MIN}
          defaultValue={submittedPrice}
          errors={fields.pricePerUnit.errors}
        />
        <SelectField
          meta={fields.minutesPerUnit}
          label="1枠の時間"
          placeholder="選択してください"
          options={LISTING_MINUTES.map((minutes) => ({ value: String(minutes), label: `${minutes}分` }))}
        />
        <SelectField
          meta={fields.maxUnits}
          label="1回で購入できる最大枠数"
          options={Array.from({ length: LISTING_MAX_UNITS }, (_, index) => ({ value: String(index + 1), label: `${index + 1}枠` }))}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-primary" disabled={submitting}>
            {submitting ? "保存中…" : editing ? "変更を保存する" : "出品する"}
          </button>
          {editing ? (
            <Link to="/mypage/ticket-registration" className="text-sm text-brand-700 underline">
              編集をやめる
            </Link>
          ) : null}
        </div>
      </Form>

      <section aria-labelledby="my-listings-title" className="space-y-3">
        <h2 id="my-listings-title" className="text-lg font-bold">
          出品中のチケット（{listings.length}/{LISTINGS_PER_SELLER_MAX}）
        </h2>
        {actionData?.statusError ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
            {actionData.statusError}
          </p>
        ) : null}
        {listings.length === 0 ? (
          <p className="rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">まだチケットがありません。上のフォームから最初のチケットを出品しましょう。</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
            {listings.map((listing) => (
              <li key={listing.id} className="space-y-2 p-4">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <Link to={`/tickets/${listing.id}`} className="font-bold text-brand-700 underline">
                    {listing.title}
                  </Link>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${listing.status === "active" ? "bg-green-100 text-green-800" : "bg-slate-200 text-slate-700"}`}>
                    {statusLabels[listing.status]}
                  </span>
                  {listing.hidden ? <HiddenBadge /> : null}
                </div>
                <p className="text-sm text-slate-600">
                  {listing.game.name}・{formatNumber(listing.pricePerUnit)}コイン / {listing.minutesPerUnit}分・最大{listing.maxUnits}枠
                </p>
                <div className="flex flex-wrap gap-2">
                  <Link to={`/mypage/ticket-registration?edit=${listing.id}`} className="btn-secondary min-h-9 px-3 text-sm">
                    編集
                  </Link>
                  {listing.status === "active" ? (
                    <StatusButton listingId={listing.id} status="paused" label="受付を停止" name={`「${listing.title}」の受付を停止`} />
                  ) : (
                    <StatusButton listingId={listing.id} status="active" label="受付を再開" name={`「${listing.title}」の受付を再開`} />
                  )}
                  <StatusButton listingId={listing.id} status="archived" label="アーカイブ" name={`「${listing.title}」をアーカイブ`} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}

function StatusButton({ listingId, status, label, name }: { listingId: string; status: "active" | "paused" | "archived"; label: string; name: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="listingId" value={listingId} />
      <input type="hidden" name="status" value={status} />
      <button type="submit" className="btn-secondary min-h-9 px-3 text-sm" aria-label={name}>
        {label}
      </button>
    </Form>
  );
}
