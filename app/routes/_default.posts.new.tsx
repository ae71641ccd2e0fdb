import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { ErrorList, TextareaField } from "~/components/forms";
import { OffPlatformWarningDialog } from "~/components/off-platform-dialog";
import { OffPlatformNotice } from "~/components/off-platform-warning";
import { SubscribersOnlyField } from "~/components/subscribers-only-field";
import { requireProfile, safeRedirectPath } from "~/http/auth.server";
import { readUploadForm } from "~/http/multipart.server";
import { redirectWithToast } from "~/http/toast.server";
import { POST_MAX, UPLOAD_IMAGE_TYPES, UPLOAD_MAX_BYTES } from "~/lib/constants";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { postErrorMessage } from "~/lib/error-messages";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import * as offPlatformText from "~/lib/messages/off-platform";
import { pageMeta } from "~/lib/meta";
import { looksLikeOffPlatformPayment } from "~/lib/off-platform";
import { parseQuery } from "~/lib/params";
import { newPostQuerySchema, postFormSchema } from "~/lib/validation/post";
import { listUserCommunities } from "~/models/communities.server";
import { createPost, PostError } from "~/models/posts.server";
import { UploadError } from "~/models/uploads.server";

export const meta: MetaFunction = () => pageMeta("新しい投稿");

/** The author's communities for the choice; `?community={slug}` preselects one of them (else 「なし」). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const { community } = parseQuery(newPostQuerySchema, request);
  const communities = await listUserCommunities({ db: context.db, userId: user.id });
  const chosen = communities.find((candidate) => candidate.slug === community) ?? null;
  return { communities, chosenId: chosen?.id ?? "", redirectTo: chosen ? `/community/${chosen.slug}` : null, rules: formRules(postFormSchema) };
}

/**
 * The new post dialog's page twin (no JavaScript): one multipart POST with the text and the image; the image goes
 * through the same upload rules as POST /api/uploads, the post through the same model as POST /api/posts/create.
 * A text that looks like an off-platform payment (docs/product.md#trust-and-safety) without the confirmation field publishes nothing and
 * comes back (200) with the warning and the form filled in again, whose button then posts it with the field (the
 * image, if one was chosen, must be chosen again: a browser cannot fill a file field).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const refuse = (status: number, errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, formData = new FormData()) =>
    data({ result: parseWithZod(formData, { schema: postFormSchema }).reply(errors) }, { status });
  let form;
  try {
    form = await readUploadForm(request, { maxFileBytes: UPLOAD_MAX_BYTES, fileField: "image" });
  } catch (error) {
    if (error instanceof UploadError) return refuse(error.status, { fieldErrors: { image: [error.message] } });
    throw error;
  }
  const formData = new FormData();
  for (const [name, value] of form.fields) formData.set(name, value);
  const submission = parseWithZod(formData, { schema: postFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { content, subscribersOnly, communityId, redirectTo, offPlatformConfirmed } = submission.value;
  if (content === null && !form.file) return refuse(400, { fieldErrors: { content: [messages.posts.empty] } }, formData);
  if (!offPlatformConfirmed && looksLikeOffPlatformPayment(content)) {
    return { result: submission.reply(), offPlatform: { content: content ?? "", imageDropped: Boolean(form.file) } };
  }
  try {
    await createPost({
      db: context.db,
      authorId: user.id,
      input: { content, imageUrl: null, isPublic: !subscribersOnly, communityId },
      upload: form.file ? { storage: context.storage, bytes: form.file.bytes } : undefined,
    });
  } catch (error) {
    if (error instanceof UploadError) return refuse(error.status, { fieldErrors: { image: [error.message] } }, formData);
    if (error instanceof PostError) return refuse(error.status, { formErrors: [postErrorMessage(error.code)] }, formData);
    throw error;
  }
  throw await redirectWithToast(request, context.config, safeRedirectPath(redirectTo, "/feed"), { type: "success", title: messages.posts.created });
}

export default function NewPostPage() {
  const { communities, chosenId, redirectTo, rules } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.result;
  const offPlatformPage = actionData && "offPlatform" in actionData ? actionData.offPlatform : undefined;
  const submitting = useNavigation().state !== "idle";
  // With JavaScript, the off-platform payment warning (docs/product.md#trust-and-safety) opens before the form is sent; confirmed, the form
  // is sent again with the confirmation field.
  const [warning, setWarning] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const formElement = useRef<HTMLFormElement>(null);
  const [form, fields] = useConstraintForm({
    id: "new-post",
    lastResult,
    rules,
  });
  // The image is not a field of the schema (it is the multipart file): its errors come from the server only.
  const imageErrors = lastResult?.error?.image ?? undefined;
  const formProps = getFormProps(form);
  return (
    <section aria-labelledby="new-post-title" className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 id="new-post-title" className="text-2xl font-bold">
          新しい投稿
        </h1>
        <p className="mt-1 text-slate-600">テキストか画像（またはその両方）を投稿できます。投稿はフィードとあなたのプロフィールに表示されます。</p>
      </div>
      {offPlatformPage ? (
        <section aria-labelledby="off-platform-title" role="alert" className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-300" data-testid="off-platform-confirmation">
          <OffPlatformNotice content={offPlatformPage.content}>
            {offPlatformPage.imageDropped ? <p className="text-sm font-semibold text-amber-900">{offPlatformText.imageDropped}</p> : null}
          </OffPlatformNotice>
        </section>
      ) : null}
      {warning !== null ? (
        <OffPlatformWarningDialog
          content={warning}
          onConfirm={() => {
            setWarning(null);
            setConfirmed(true);
            // The hidden field renders first, then the form goes.
            setTimeout(() => formElement.current?.requestSubmit(), 0);
          }}
          onCancel={() => setWarning(null)}
        />
      ) : null}
      <Form
        ref={formElement}
        method="post"
        encType="multipart/form-data"
        {...formProps}
        onSubmit={(event) => {
          formProps.onSubmit(event);
          if (event.defaultPrevented || confirmed || offPlatformPage) return;
          const content = String(new FormData(event.currentTarget).get("content") ?? "").trim();
          if (!looksLikeOffPlatformPayment(content)) return;
          event.preventDefault();
          setWarning(content);
        }}
        className="space-y-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <TextareaField meta={fields.content} label="投稿内容" hint={`${POST_MAX}文字以内`} rows={5} />
        <div>
          <label htmlFor="new-post-image" className="field-label">
            {messages.posts.imageLabel}
          </label>
          <input
            id="new-post-image"
            name="image"
            type="file"
            accept={UPLOAD_IMAGE_TYPES.join(",")}
            aria-invalid={imageErrors?.length ? true : undefined}
            aria-describedby={imageErrors?.length ? "new-post-image-error" : undefined}
            className="field-file mt-1"
          />
          <ErrorList id="new-post-image-error" errors={imageErrors} />
        </div>
        <div>
          <label htmlFor="new-post-community" className="field-label">
            {messages.posts.communityLabel}
          </label>
          <select id="new-post-community" name={fields.communityId.name} defaultValue={typeof fields.communityId.initialValue === "string" ? fields.communityId.initialValue : chosenId} className="field-input mt-1">
            <option value="">{messages.posts.noCommunity}</option>
            {communities.map((community) => (
              <option key={community.id} value={community.id}>
                {community.name}（{community.game.name}）
              </option>
            ))}
          </select>
          <ErrorList id="new-post-community-error" errors={fields.communityId.errors} />
        </div>
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <SubscribersOnlyField name={fields.subscribersOnly.name} defaultChecked={fields.subscribersOnly.initialValue === "on"} />
        {offPlatformPage || confirmed ? <input type="hidden" name="offPlatformConfirmed" value="true" /> : null}
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-primary" disabled={submitting}>
            {submitting ? "投稿中…" : offPlatformPage ? offPlatformText.confirm : "投稿する"}
          </button>
          <Link to="/feed" className="text-sm text-slate-700 underline">
            キャンセル
          </Link>
        </div>
      </Form>
    </section>
  );
}
