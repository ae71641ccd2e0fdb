import { POST_MAX, UPLOAD_IMAGE_TYPES, UPLOAD_MAX_BYTES } from "./constants";
import { messages } from "./messages";

/**
 * The new post dialog's rules and flow (docs/product.md#screens, #validation, #api), apart from React so unit tests drive them: text (trimmed,
 * at most 500 characters, with a counter) and/or one image; the image is checked here first (the post-type
 * validator: a type the server takes, at most 10 MB) and the alert 「入力内容を確認してください」 shows when it is
 * not; it is uploaded (type post) before the post is created; a failure says 「投稿に失敗しました」 (or the server's
 * reason); a second submit while one is under way does nothing.
 */

export const postLength = (content: string) => content.trim().length;
export const postCounter = (content: string) => `${postLength(content)}/${POST_MAX}`;
export const postTooLong = (content: string) => postLength(content) > POST_MAX;

/** The post-type image validator: what the server accepts, by the browser's type and size (the server then judges the bytes). */
export const isPostImage = (file: { type: string; size: number }) =>
  (UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type) && file.size > 0 && file.size <= UPLOAD_MAX_BYTES;

export interface PostDraft {
  content: string;
  hasImage: boolean;
}

/** Text or an image, the text within the limit, and nothing already being sent. */
export const canSubmitPost = (draft: PostDraft, submitting: boolean) =>
  !submitting && (postLength(draft.content) > 0 || draft.hasImage) && !postTooLong(draft.content);

/** What a step answered: done (with its value), or refused with what the server said (if anything useful). */
export type StepResult<T> = { ok: true; value: T } | { ok: false; status?: number; message?: string };

export interface PostFlowDeps<Image, Created> {
  /** Uploads the image; a subscriber-only post's (`isPublic` false) is stored private (ADR 070). */
  upload: (image: Image, options: { isPublic: boolean }) => Promise<StepResult<string>>;
  create: (post: {
    content: string | null;
    imageUrl: string | null;
    isPublic: boolean;
    communityId?: string | null;
    offPlatformConfirmed?: boolean;
  }) => Promise<StepResult<Created>>;
}

/** The outcome of one submit: the created post, an error to show, or nothing (a submit already under way). */
export type SubmitOutcome<Created> = { ok: true; post: Created } | { ok: false; error: string } | null;

export function createPostFlow<Image, Created>({ upload, create }: PostFlowDeps<Image, Created>) {
  let submitting = false;
  return {
    submitting: () => submitting,
    async submit({
      content,
      image,
      isPublic = true,
      communityId = null,
      offPlatformConfirmed = false,
    }: {
      content: string;
      image: Image | null;
      isPublic?: boolean;
      communityId?: string | null;
      /** The author confirmed the off-platform payment warning (docs/product.md#trust-and-safety). */
      offPlatformConfirmed?: boolean;
    }): Promise<SubmitOutcome<Created>> {
      if (submitting || !canSubmitPost({ content, hasImage: image !== null }, false)) return null;
      submitting = true;
      try {
        let imageUrl: string | null = null;
        if (image !== null) {
          const uploaded = await upload(image, { isPublic });
          // The server judged the file not an image it takes: the same alert as the validator's.
          if (!uploaded.ok) return { ok: false, error: uploaded.status === 400 ? messages.validation.checkInput : uploaded.message ?? messages.posts.failed };
          imageUrl = uploaded.value;
        }
        const trimmed = content.trim();
        const created = await create({
          content: trimmed === "" ? null : trimmed,
          imageUrl,
          isPublic,
          ...(communityId ? { communityId } : {}),
          ...(offPlatformConfirmed ? { offPlatformConfirmed } : {}),
        });
        if (!created.ok) return { ok: false, error: created.message ?? messages.posts.failed };
        return { ok: true, post: created.value };
      } finally {
        submitting = false;
      }
    },
  };
}
