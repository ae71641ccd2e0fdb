import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { HiddenBadge } from "~/components/moderation-slots";
import { useReloadOnNewPost } from "~/components/post-dialog";
import { PostImage } from "~/components/post-image";
import { GALLERY_PAGE_SIZE } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams, parseQuery } from "~/lib/params";
import { formatDateTime, isoString } from "~/lib/time";
import { uuidParam } from "~/lib/validation/fields";
import { postCursorSchema } from "~/lib/validation/post";
import { getPost, listPosts } from "~/models/posts.server";

const paramsSchema = z.object({ uid: uuidParam });
const querySchema = z.object({ cursor: postCursorSchema, photo: uuidParam.optional() });

export const meta: MetaFunction = ({ matches }) => {
  const profile = matches.find((match) => match.id === "routes/_profile.u.$uid")?.data as { profile?: { displayName: string } } | undefined;
  return pageMeta(profile?.profile ? `${profile.profile.displayName}さんのギャラリー` : "ギャラリー");
};

/**
 * `/u/{uid}/gallery`: the person's posts with an image, as a grid, a page per `?cursor=`; `?photo={postId}` shows one
 * at full size. Only what the viewer may see.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { uid } = parseParams(paramsSchema, params, request);
  const { cursor, photo } = parseQuery(querySchema, request);
  const viewer = await context.auth.getUser();
  const viewerId = viewer?.id ?? null;
  if (photo) {
    const post = await getPost({ db: context.readDb, postId: photo, viewerId });
    // A locked picture has no full-size view: it is not the viewer's to see.
    if (!post || post.author.uid !== uid || !post.image) throw new Response(null, { status: 404 });
    return { uid, photo: post, page: null };
  }
  const page = await listPosts({ db: context.readDb, viewerId, authorId: uid, withImage: true, cursor, limit: GALLERY_PAGE_SIZE });
  return { uid, photo: null, page };
}

export default function ProfileGallery() {
  const { uid, photo, page } = useLoaderData<typeof loader>();
  useReloadOnNewPost();
  const gallery = `/u/${uid}/gallery`;
  if (photo?.image) {
    return (
      <figure className="space-y-3" aria-label="画像の詳細">
        <p>
          <Link to={gallery} className="text-sm text-brand-700 underline">
            ← ギャラリーに戻る
          </Link>
        </p>
        <PostImage post={photo} image={photo.image} eager className="mx-auto h-auto max-h-[80vh] w-auto max-w-full rounded-xl bg-slate-100 object-contain" />
        <figcaption className="space-y-1">
          {photo.hidden ? <HiddenBadge /> : null}
          {photo.content ? <p className="whitespace-pre-wrap break-words">{photo.content}</p> : null}
          <time className="block text-xs text-slate-600" dateTime={isoString(photo.createdAt)}>
            {formatDateTime(photo.createdAt)}
          </time>
        </figcaption>
      </figure>
    );
  }
  if (!page || page.posts.length === 0) {
    return <p className="rounded-xl bg-white p-8 text-center text-slate-600 ring-1 ring-slate-200">画像つきの投稿はまだありません。</p>;
  }
  return (
    <section aria-label="ギャラリー" className="space-y-4">
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {page.posts.map((post) =>
          post.locked ? (
            <li key={post.id}>
              <Link
                to={`/u/${uid}/subscribe`}
                className="flex aspect-square flex-col items-center justify-center gap-1 rounded-lg bg-slate-100 p-2 text-center text-sm text-slate-700 ring-1 ring-slate-200"
                data-testid="locked-post"
              >
                <span aria-hidden="true" className="text-2xl">
                  🔒
                </span>
                {messages.subscriptions.locked}
              </Link>
            </li>
          ) : post.image ? (
            <li key={post.id}>
              <Link to={`${gallery}?photo=${post.id}`} className="relative block overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 focus-visible:ring-2 focus-visible:ring-brand-600">
                {post.hidden ? <HiddenBadge className="absolute top-1 left-1 z-10" /> : null}
                <PostImage
                  post={post}
                  image={post.image}
                  alt={post.content ? `画像: ${post.content.slice(0, 40)}` : undefined}
                  className="aspect-square h-auto w-full object-cover transition hover:scale-105"
                />
              </Link>
            </li>
          ) : null,
        )}
      </ul>
      {page.nextCursor ? (
        <Link to={`${gallery}?${new URLSearchParams({ cursor: page.nextCursor })}`} className="btn-secondary w-full justify-center">
          もっと見る
        </Link>
      ) : null}
    </section>
  );
}
