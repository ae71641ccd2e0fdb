import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { NewPostLink, useReloadOnNewPost } from "~/components/post-dialog";
import { PostList } from "~/components/post-list";
import { POSTS_PAGE_SIZE } from "~/lib/constants";
import { pageMeta } from "~/lib/meta";
import { parseQuery } from "~/lib/params";
import { postPageQuerySchema } from "~/lib/validation/post";
import { listPosts } from "~/models/posts.server";

export const meta: MetaFunction = () => pageMeta("フィード");

/** `/feed`: the newest public posts (the viewer's own too; blocked users' hidden), a page per `?cursor=`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cursor } = parseQuery(postPageQuerySchema, request);
  const viewer = await context.auth.getUser();
  const page = await listPosts({ db: context.readDb, viewerId: viewer?.id ?? null, cursor, limit: POSTS_PAGE_SIZE });
  return { page, viewerId: viewer?.id ?? null, paged: !!cursor };
}

export default function FeedPage() {
  const { page, viewerId, paged } = useLoaderData<typeof loader>();
  useReloadOnNewPost();
  return (
    <section aria-labelledby="feed-title" className="mx-auto max-w-2xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="feed-title" className="text-2xl font-bold">
          フィード
        </h1>
        {viewerId ? (
          <NewPostLink className="btn-primary">投稿する</NewPostLink>
        ) : (
          <Link to="/login?redirectTo=%2Ffeed" className="btn-secondary">
            ログインして投稿する
          </Link>
        )}
      </div>
      {paged ? (
        <p className="text-sm">
          <Link to="/feed" className="text-brand-700 underline">
            最新の投稿に戻る
          </Link>
        </p>
      ) : null}
      <PostList page={page} viewerId={viewerId} emptyText="まだ投稿はありません。最初の投稿をしてみましょう。" />
    </section>
  );
}
