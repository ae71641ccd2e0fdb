import { useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "~/lib/api-client";
import { POST_MAX, UPLOAD_IMAGE_TYPES } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { postErrorMessage } from "~/lib/error-messages";
import { canSubmitPost, createPostFlow, isPostImage, postCounter, postTooLong, type StepResult } from "~/lib/post-form";
import type { CommunitySummary } from "~/models/communities.server";
import type { Post } from "~/models/posts.server";
import { looksLikeOffPlatformPayment } from "~/lib/off-platform";
import { useAuth } from "./auth-provider";
import { OffPlatformWarningDialog } from "./off-platform-dialog";
import { SubscribersOnlyField } from "./subscribers-only-field";
import { showToast } from "./toaster";

const failure = (error: unknown, message: (code: string) => string): StepResult<never> => {
  if (error instanceof ApiError) return { ok: false, status: error.status, message: error.code ? message(error.code) : undefined };
  return { ok: false };
};

/**
 * The new post dialog itself (docs/product.md#screens, #validation): a modal `<dialog>` with the text, its counter, one image with a preview,
 * and the alerts of docs/product.md#errors. Its rules and flow live in ~/lib/post-form.
 */
export default function PostDialogBody({
  onClose,
  onCreated,
  initialCommunityId = null,
}: {
  onClose: () => void;
  onCreated: () => void;
  initialCommunityId?: string | null;
}) {
  const { api } = useAuth();
  const dialog = useRef<HTMLDialogElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [content, setContent] = useState("");
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [subscribersOnly, setSubscribersOnly] = useState(false);
  const [communityId, setCommunityId] = useState(initialCommunityId ?? "");
  const [communities, setCommunities] = useState<CommunitySummary[]>([]);
  // The off-platform payment warning (docs/product.md#trust-and-safety) is open over the dialog.
  const [warning, setWarning] = useState(false);
  const flow = useMemo(
    () =>
      createPostFlow<File, Post>({
        upload: async (file, { isPublic }) => {
          const form = new FormData();
          form.set("type", "post");
          // A subscriber-only post's image is private from the start (ADR 070): read through /media by its readers only.
          if (!isPublic) form.set("subscribersOnly", "true");
          form.set("file", file);
          try {
            const body = await api.post<{ data: { url: string } }>("/api/uploads", form);
            return body ? { ok: true, value: body.data.url } : { ok: false };
          } catch (error) {
            return failure(error, () => messages.posts.failed);
          }
        },
        create: async (post) => {
          try {
            const body = await api.post<{ post: Post }>("/api/posts/create", post);
            return body ? { ok: true, value: body.post } : { ok: false };
          } catch (error) {
            return failure(error, postErrorMessage);
          }
        },
      }),
    [api],
  );

  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  // The communities the author may post into, fetched when the dialog opens; without them the choice is 「なし」 only.
  useEffect(() => {
    let live = true;
    api
      .get<{ data: { communities: CommunitySummary[] } }>("/api/user/communities")
      .then((body) => live && body && setCommunities(body.data.communities))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [api]);
  // The preview is an object URL of the chosen file: freed when another is chosen or the dialog closes.
  useEffect(() => {
    if (!image) return setPreview(null);
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const chooseImage = (file: File | undefined) => {
    setError(null);
    if (!file) return setImage(null);
    if (!isPostImage(file)) {
      setImage(null);
      if (fileInput.current) fileInput.current.value = "";
      return setError(messages.validation.checkInput);
    }
    setImage(file);
  };
  const removeImage = () => {
    setImage(null);
    if (fileInput.current) fileInput.current.value = "";
  };

  const submit = async (offPlatformConfirmed = false) => {
    setError(null);
    if (!offPlatformConfirmed && looksLikeOffPlatformPayment(content)) return setWarning(true);
    setSubmitting(true);
    const outcome = await flow.submit({ content, image, isPublic: !subscribersOnly, communityId: communityId || null, offPlatformConfirmed });
    setSubmitting(false);
    if (!outcome) return;
    if (!outcome.ok) return setError(outcome.error);
    showToast({ type: "success", title: messages.posts.created });
    onCreated();
    dialog.current?.close();
  };

  const counterId = "post-content-counter";
  const tooLong = postTooLong(content);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="post-dialog-title"
      onClose={onClose}
      className="m-auto w-[min(34rem,calc(100%-1.5rem))] rounded-2xl bg-white p-0 shadow-xl backdrop:bg-slate-900/50"
    >
      <form
        className="space-y-4 p-4 sm:p-6"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="flex items-center justify-between gap-3">
          <h2 id="post-dialog-title" className="text-lg font-bold">
            新しい投稿
          </h2>
          <button type="button" className="rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100" onClick={() => dialog.current?.close()}>
            閉じる
          </button>
        </div>
        <div>
          <label htmlFor="post-content" className="field-label">
            投稿内容
          </label>
          <textarea
            id="post-content"
            name="content"
            rows={5}
            value={content}
            onChange={(event) => setContent(event.target.value)}
            aria-describedby={counterId}
            aria-invalid={tooLong || undefined}
            placeholder="いまどんなゲームをしていますか？"
            className="field-input"
          />
          <p id={counterId} className={`mt-1 text-right text-xs ${tooLong ? "font-semibold text-red-700" : "text-slate-600"}`}>
            {postCounter(content)}
            {tooLong ? `（${messages.validation.maxLength(POST_MAX)}）` : null}
          </p>
        </div>
        <div>
          <label htmlFor="post-image" className="field-label">
            {messages.posts.imageLabel}
          </label>
          <input
            ref={fileInput}
            id="post-image"
            name="image"
            type="file"
            accept={UPLOAD_IMAGE_TYPES.join(",")}
            onChange={(event) => chooseImage(event.target.files?.[0])}
            className="field-file mt-1"
          />
          {preview ? (
            <figure className="mt-3 space-y-2">
              <img src={preview} alt="選んだ画像のプレビュー" className="max-h-64 w-auto max-w-full rounded-lg bg-slate-100 object-contain" data-testid="post-image-preview" />
              <button type="button" onClick={removeImage} className="text-sm text-slate-700 underline">
                画像を外す
              </button>
            </figure>
          ) : null}
        </div>
        <div>
          <label htmlFor="post-community" className="field-label">
            {messages.posts.communityLabel}
          </label>
          <select id="post-community" name="communityId" value={communityId} onChange={(event) => setCommunityId(event.target.value)} className="field-input mt-1">
            <option value="">{messages.posts.noCommunity}</option>
            {communities.map((community) => (
              <option key={community.id} value={community.id}>
                {community.name}（{community.game.name}）
              </option>
            ))}
            {/* The preselected one shows before the list arrives. */}
            {communityId && !communities.some((community) => community.id === communityId) ? <option value={communityId}>…</option> : null}
          </select>
        </div>
        <SubscribersOnlyField name="subscribersOnly" checked={subscribersOnly} onChange={setSubscribersOnly} />
        {error ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn-primary w-full" disabled={!canSubmitPost({ content, hasImage: image !== null }, submitting)} aria-busy={submitting || undefined}>
          {submitting ? "投稿中…" : "投稿する"}
        </button>
      </form>
      {warning ? (
        <OffPlatformWarningDialog
          content={content.trim()}
          onConfirm={() => {
            setWarning(false);
            void submit(true);
          }}
          onCancel={() => setWarning(false)}
        />
      ) : null}
    </dialog>
  );
}
