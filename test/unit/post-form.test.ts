import { describe, expect, it, vi } from "vitest";
import { canSubmitPost, createPostFlow, isPostImage, postCounter, postTooLong, type StepResult } from "~/lib/post-form";

/** The new post dialog's rules and flow (docs/product.md#validation, #api, #errors). */

const image = { name: "shot.png" };
type Image = typeof image;

function flowWith({ upload, create }: { upload?: (image: Image) => Promise<StepResult<string>>; create?: () => Promise<StepResult<{ id: string }>> } = {}) {
  const uploadMock = vi.fn(upload ?? (async () => ({ ok: true as const, value: "/uploads/post/abc.png" })));
  const createMock = vi.fn(create ?? (async () => ({ ok: true as const, value: { id: "p1" } })));
  return { flow: createPostFlow<Image, { id: string }>({ upload: uploadMock, create: createMock }), uploadMock, createMock };
}

describe("what may be posted", () => {
  it("needs non-empty trimmed text or an image, at most 500 characters, and nothing under way", () => {
    expect(canSubmitPost({ content: "", hasImage: false }, false)).toBe(false);
    expect(canSubmitPost({ content: " \n\t ", hasImage: false }, false)).toBe(false);
    expect(canSubmitPost({ content: "あ", hasImage: false }, false)).toBe(true);
    expect(canSubmitPost({ content: "", hasImage: true }, false)).toBe(true);
    expect(canSubmitPost({ content: "あ".repeat(500), hasImage: false }, false)).toBe(true);
    expect(canSubmitPost({ content: "あ".repeat(501), hasImage: true }, false)).toBe(false);
    expect(canSubmitPost({ content: "あ", hasImage: true }, true)).toBe(false);
  });

  it("counts the trimmed text against 500", () => {
    expect(postCounter("  ゲーム  ")).toBe("3/500");
    expect(postTooLong(` ${"あ".repeat(500)} `)).toBe(false);
    expect(postTooLong("あ".repeat(501))).toBe(true);
  });

  it("the post-type image validator takes JPEG, PNG, WebP and GIF up to 10 MB", () => {
    for (const type of ["image/jpeg", "image/png", "image/webp", "image/gif"]) expect(isPostImage({ type, size: 1000 })).toBe(true);
    for (const type of ["image/svg+xml", "text/html", "application/pdf", "image/heic", ""]) expect(isPostImage({ type, size: 1000 })).toBe(false);
    expect(isPostImage({ type: "image/png", size: 10 * 1024 * 1024 })).toBe(true);
    expect(isPostImage({ type: "image/png", size: 10 * 1024 * 1024 + 1 })).toBe(false);
    expect(isPostImage({ type: "image/png", size: 0 })).toBe(false);
  });
});

describe("submitting (docs/product.md#api: upload with type post first, then create)", () => {
  it("uploads the image, then creates the post with the trimmed text, the image's URL and isPublic true", async () => {
    const { flow, uploadMock, createMock } = flowWith();
    const outcome = await flow.submit({ content: "  新しいスキン！ ", image });
    expect(outcome).toEqual({ ok: true, post: { id: "p1" } });
    expect(uploadMock).toHaveBeenCalledWith(image, { isPublic: true });
    expect(createMock).toHaveBeenCalledWith({ content: "新しいスキン！", imageUrl: "/uploads/post/abc.png", isPublic: true });
    expect(uploadMock.mock.invocationCallOrder[0]).toBeLessThan(createMock.mock.invocationCallOrder[0]!);
  });

  it("text only sends imageUrl null; image only sends content null", async () => {
    const text = flowWith();
    await text.flow.submit({ content: "テキストだけ", image: null });
    expect(text.uploadMock).not.toHaveBeenCalled();
    expect(text.createMock).toHaveBeenCalledWith({ content: "テキストだけ", imageUrl: null, isPublic: true });
    const picture = flowWith();
    await picture.flow.submit({ content: "   ", image });
    expect(picture.createMock).toHaveBeenCalledWith({ content: null, imageUrl: "/uploads/post/abc.png", isPublic: true });
  });

  it("an image the server refuses (400) is the alert 入力内容を確認してください, and no post is created", async () => {
    const { flow, createMock } = flowWith({ upload: async () => ({ ok: false, status: 400 }) });
    expect(await flow.submit({ content: "", image })).toEqual({ ok: false, error: "入力内容を確認してください" });
    expect(createMock).not.toHaveBeenCalled();
  });

  it("a failure says 投稿に失敗しました, or the server's reason when it gave one", async () => {
    expect(await flowWith({ create: async () => ({ ok: false, status: 500 }) }).flow.submit({ content: "あ", image: null })).toEqual({ ok: false, error: "投稿に失敗しました" });
    expect(await flowWith({ upload: async () => ({ ok: false, status: 503 }) }).flow.submit({ content: "あ", image })).toEqual({ ok: false, error: "投稿に失敗しました" });
    const limited = flowWith({ create: async () => ({ ok: false, status: 429, message: "投稿が続いています。1分ほど待ってからもう一度お試しください" }) });
    expect(await limited.flow.submit({ content: "あ", image: null })).toEqual({ ok: false, error: "投稿が続いています。1分ほど待ってからもう一度お試しください" });
  });

  it("cannot submit twice while submitting; may again once the first is done", async () => {
    let finish: (value: StepResult<{ id: string }>) => void = () => {};
    const { flow, createMock } = flowWith({ create: () => new Promise((resolve) => (finish = resolve)) });
    const first = flow.submit({ content: "一度だけ", image: null });
    expect(flow.submitting()).toBe(true);
    expect(await flow.submit({ content: "一度だけ", image: null })).toBeNull();
    finish({ ok: true, value: { id: "p1" } });
    expect(await first).toEqual({ ok: true, post: { id: "p1" } });
    expect(createMock).toHaveBeenCalledTimes(1);
    expect(flow.submitting()).toBe(false);
  });

  it("sends nothing when there is nothing to post or the text is too long", async () => {
    const { flow, uploadMock, createMock } = flowWith();
    expect(await flow.submit({ content: "  ", image: null })).toBeNull();
    expect(await flow.submit({ content: "あ".repeat(501), image })).toBeNull();
    expect(uploadMock).not.toHaveBeenCalled();
    expect(createMock).not.toHaveBeenCalled();
  });
});
