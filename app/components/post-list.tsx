import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { messages } from "~/lib/messages";
import { formatDateTime, isoString } from "~/lib/time";
import type { Post, PostImage as PostImageData, PostPage } from "~/models/posts.server";
import { Avatar } from "./presence";

const confirmDelete = (event: FormEvent<HTMLFormElement>) => {
  if (!window.confirm("この投稿を削除しますか？")) event.preventDefault();
};

/**
 * One post: author, time in Asia/Tokyo, the text as text (React escapes it; line breaks kept by CSS), the image with
 * its width and height, loaded lazily. Its author may delete it (a plain form; a confirmation with JavaScript).
 */
export function PostCard({ post, viewerId, redirectTo }: { post: Post; viewerId: string | null; redirectTo: string }) {
  const headingId = `post-${post.id}-author`;
  return (
    <article aria-labelledby={headingId} className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="post">
      <header className="flex items-center gap-3">
        <Link to={`/u/${post.author.uid}`} className="shrink-0" tabIndex={-1} aria-hidden="true">
          <Avatar name={post.author.displayName} src={post.author.avatar} />
        </Link>
        <div className="min-w-0">
          <h3 id={headingId} className="truncate text-sm font-semibold">
            <Link to={`/u/${post.author.uid}`} className="hover:underline">
              {post.author.displayName}
            </Link>
          </h3>
          <time className="text-xs text-slate-600" dateTime={isoString(post.createdAt)}>
            {formatDateTime(post.createdAt)}
          </time>
        </div>
        {viewerId === post.author.uid ? (
          <Form method="post" action={`/posts/${post.id}/delete`} className="ml-auto" onSubmit={confirmDelete}>
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button type="submit" className="rounded-md px-2 py-1 text-xs text-slate-600 hover:bg-red-50 hover:text-red-700">
              削除
            </button>
          </Form>
        ) : null}
      </header>
      {post.locked ? (
        <LockedPost post={post} />
      ) : (
        <>
          {post.isPublic ? null : <p className="inline-block rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900">サブスク限定</p>}
          {post.content ? <p className="whitespace-pre-wrap break-words">{post.content}</p> : null}
          {post.image ? <PostImage post={post} image={post.image} className="h-auto max-h-[36rem] w-auto max-w-full rounded-lg bg-slate-100 object-contain" /> : null}
        </>
      )}
    </article>
  );
}

/** What a subscriber-only post shows to someone who does not subscribe: that it exists, and the way in. */
function LockedPost({ post }: { post: Post }) {
  return (
    <div className="rounded-lg bg-slate-50 px-4 py-6 text-center ring-1 ring-slate-200" data-testid="locked-post">
      <p className="font-semibold text-slate-800">
        <span aria-hidden="true">🔒 </span>
        {messages.subscriptions.locked}
        {post.hasImage ? "（画像つき）" : ""}
      </p>
      <Link to={`/u/${post.author.uid}/subscribe`} className="btn-primary mt-3">
        サブスクして見る
      </Link>
    </div>
  );
}

/** A post's picture at its stored size (no layout shift), loaded when it nears the screen unless `eager`. */
export function PostImage({ post, image, className, alt, eager = false }: { post: Post; image: PostImageData; className: string; alt?: string; eager?: boolean }) {
  return (
    <img
      src={image.url}
      width={image.width}
      height={image.height}
      loading={eager ? undefined : "lazy"}
      decoding="async"
      alt={alt ?? `${post.author.displayName}さんの投稿画像`}
      className={className}
    />
  );
}

/**
 * Posts a page at a time. Without JavaScript the 「もっと見る」 link loads the next page (`?cursor=`); with it, the
 * next page is fetched into this list as the link scrolls into view (or is pressed).
 */
export function PostList({ page, viewerId, emptyText }: { page: PostPage; viewerId: string | null; emptyText: string }) {
  const location = useLocation();
  const fetcher = useFetcher<{ page: PostPage }>();
  const [pages, setPages] = useState<PostPage[]>([page]);
  const more = useRef<HTMLAnchorElement>(null);
  // Fresh loader data (a revalidation after a post or a delete, another cursor) starts the list again.
  useEffect(() => setPages([page]), [page]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.page) {
      const next = fetcher.data.page;
      setPages((current) => (current.some((p) => p.nextCursor === next.nextCursor && p.posts[0]?.id === next.posts[0]?.id) ? current : [...current, next]));
    }
  }, [fetcher.state, fetcher.data]);

  const nextCursor = pages[pages.length - 1]!.nextCursor;
  const nextHref = nextCursor ? `${location.pathname}?${new URLSearchParams({ cursor: nextCursor })}` : null;
  const loadMore = () => {
    if (nextHref && fetcher.state === "idle") fetcher.load(nextHref);
  };

  useEffect(() => {
    const link = more.current;
    if (!link || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && loadMore(), { rootMargin: "400px" });
    observer.observe(link);
    return () => observer.disconnect();
    // loadMore reads the latest cursor through nextHref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextHref, fetcher.state]);

  const posts = pages.flatMap((p) => p.posts);
  const here = location.pathname + location.search;
  if (posts.length === 0) return <p className="rounded-xl bg-white p-8 text-center text-slate-600 ring-1 ring-slate-200">{emptyText}</p>;
  return (
    <div className="space-y-4">
      <ul className="space-y-4" aria-label="投稿一覧">
        {posts.map((post) => (
          <li key={post.id}>
            <PostCard post={post} viewerId={viewerId} redirectTo={here} />
          </li>
        ))}
      </ul>
      {nextHref ? (
        <Link
          ref={more}
          to={nextHref}
          onClick={(event) => {
            event.preventDefault();
            loadMore();
          }}
          className="btn-secondary w-full justify-center"
          aria-busy={fetcher.state !== "idle"}
        >
          {fetcher.state !== "idle" ? "読み込み中…" : "もっと見る"}
        </Link>
      ) : (
        <p className="text-center text-sm text-slate-500">これ以上の投稿はありません</p>
      )}
    </div>
  );
}
