import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { PostPage } from "~/models/posts.server";
import { PostCards } from "./post-card";

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
      <PostCards posts={posts} viewerId={viewerId} redirectTo={here} />
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
