import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useReloadOnNewPost } from "~/components/post-dialog";
import { PostList } from "~/components/post-list";
import { POSTS_PAGE_SIZE } from "~/lib/constants";
import { pageMeta } from "~/lib/meta";
import { parseParams, parseQuery } from "~/lib/params";
import { uuidParam } from "~/lib/validation/fields";
import { postPageQuerySchema } from "~/lib/validation/post";
import { listPosts } from "~/models/posts.server";

const paramsSchema = z.object({ uid: uuidParam });

export const meta: MetaFunction = ({ matches }) => {
  const profile = matches.find((match) => match.id === "routes/_profile.u.$uid")?.data as { profile?: { displayName: string } } | undefined;
  return pageMeta(profile?.profile ? `${profile.profile.displayName}さんの投稿` : "投稿");
};

/** `/u/{uid}/posts`: the person's posts the viewer may see, newest first, a page per `?cursor=`. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { uid } = parseParams(paramsSchema, params, request);
  const { cursor } = parseQuery(postPageQuerySchema, request);
  const viewer = await context.auth.getUser();
  const page = await listPosts({ db: context.readDb, viewerId: viewer?.id ?? null, authorId: uid, cursor, limit: POSTS_PAGE_SIZE });
  return { page, viewerId: viewer?.id ?? null, isSelf: viewer?.id === uid };
}

export default function ProfilePosts() {
  const { page, viewerId, isSelf } = useLoaderData<typeof loader>();
  useReloadOnNewPost();
  return (
    <section aria-label="投稿">
      <PostList page={page} viewerId={viewerId} emptyText={isSelf ? "まだ投稿していません。「投稿する」から最初の投稿をしてみましょう。" : "表示できる投稿はありません。"} />
    </section>
  );
}
