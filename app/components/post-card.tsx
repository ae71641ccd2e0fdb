import { Form, Link } from "@remix-run/react";
import type { FormEvent } from "react";
import { messages } from "~/lib/messages";
import { formatDateTime, isoString } from "~/lib/time";
import type { Post } from "~/models/posts.server";
import { HiddenBadge, ReportLink } from "./moderation-slots";
import { PostImage } from "./post-image";
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
        ) : viewerId && !post.locked ? (
          <div className="ml-auto">
            <ReportLink type="post" id={post.id} ownerName={post.author.displayName} />
          </div>
        ) : null}
      </header>
      {post.hidden ? <HiddenBadge /> : null}
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

/** The 投稿一覧 itself: one card a post; a card's forms (delete, report) come back to `redirectTo`. */
export function PostCards({ posts, viewerId, redirectTo }: { posts: Post[]; viewerId: string | null; redirectTo: string }) {
  return (
    <ul className="space-y-4" aria-label="投稿一覧">
      {posts.map((post) => (
        <li key={post.id}>
          <PostCard post={post} viewerId={viewerId} redirectTo={redirectTo} />
        </li>
      ))}
    </ul>
  );
}
