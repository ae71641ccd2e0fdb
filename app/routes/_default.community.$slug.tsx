import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { IntentButton } from "~/components/intent-button";
import { NewPostLink, useReloadOnNewPost } from "~/components/post-dialog";
import { PostList } from "~/components/post-list";
import { Avatar } from "~/components/presence";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { POSTS_PAGE_SIZE } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams, parseQuery } from "~/lib/params";
import { communityMembershipSchema } from "~/lib/validation/community";
import { slugParamsSchema } from "~/lib/validation/fields";
import { postPageQuerySchema } from "~/lib/validation/post";
import { CommunityError, getCommunity, joinCommunity, leaveCommunity } from "~/models/communities.server";
import { listPosts } from "~/models/posts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.community.name ?? "コミュニティ", data?.community.description || undefined);

/** `/community/{slug}`: the community, some members, and the posts tagged with it, newest first, a page per `?cursor=`. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { slug } = parseParams(slugParamsSchema, params, request);
  const { cursor } = parseQuery(postPageQuerySchema, request);
  const viewer = await context.auth.getUser();
  const viewerId = viewer?.id ?? null;
  const community = await getCommunity({ db: context.db, slug, viewerId });
  if (!community) throw new Response(null, { status: 404, statusText: "Not Found" });
  const page = await listPosts({ db: context.db, viewerId, communityId: community.id, cursor, limit: POSTS_PAGE_SIZE });
  return { community, page, viewerId, paged: !!cursor };
}

/** Join or leave (a plain form; the count moves in the model's transaction), then back here with a toast. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { slug } = parseParams(slugParamsSchema, params, request);
  const { user } = await requireProfile(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: communityMembershipSchema });
  if (submission.status !== "success") throw new Response(messages.validation.checkInput, { status: 400, statusText: "Bad Request" });
  try {
    const title =
      submission.value.intent === "join"
        ? messages.communities.joined((await joinCommunity({ db: context.db, userId: user.id, slug })).community.name)
        : messages.communities.left((await leaveCommunity({ db: context.db, userId: user.id, slug })).community.name);
    throw await redirectWithToast(request, context.config, `/community/${slug}`, { type: "success", title });
  } catch (error) {
    if (error instanceof CommunityError) throw new Response(error.status === 404 ? messages.communities.notFound : messages.communities.profileRequired, { status: error.status });
    throw error;
  }
}

export default function CommunityPage() {
  const { community, page, viewerId, paged } = useLoaderData<typeof loader>();
  const submitting = useNavigation().state === "submitting";
  useReloadOnNewPost();
  const here = `/community/${community.slug}`;
  return (
    <section aria-labelledby="community-title" className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-3 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <p className="text-sm">
          <Link to={`/games/${community.game.slug}`} className="text-brand-700 underline">
            {community.game.name}
          </Link>
        </p>
        <h1 id="community-title" className="text-2xl font-bold">
          {community.name}
        </h1>
        {community.description ? <p className="whitespace-pre-line text-slate-700">{community.description}</p> : null}
        <p className="text-sm text-slate-700">
          メンバー <strong data-testid="community-members-count">{formatNumber(community.membersCount)}</strong>人
        </p>
        {community.members.length > 0 ? (
          <ul className="flex flex-wrap gap-2" aria-label="メンバー">
            {community.members.map((member) => (
              <li key={member.uid}>
                <Link to={`/u/${member.uid}`} className="inline-flex items-center gap-1.5 rounded-full bg-slate-50 py-1 pr-3 pl-1 text-sm ring-1 ring-slate-200 hover:bg-slate-100">
                  <Avatar name={member.displayName} src={member.avatar} size="sm" />
                  {member.displayName}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex flex-wrap items-center gap-3 pt-2">
          {!viewerId ? (
            <Link to={`/login?${new URLSearchParams({ redirectTo: here })}`} className="btn-primary">
              ログインして参加する
            </Link>
          ) : community.isMember ? (
            <>
              <NewPostLink className="btn-primary" community={{ id: community.id, slug: community.slug }}>
                このコミュニティに投稿
              </NewPostLink>
              <IntentButton intent="leave" className="btn-secondary" disabled={submitting}>
                退会する
              </IntentButton>
            </>
          ) : (
            <IntentButton intent="join" className="btn-primary" disabled={submitting}>
              参加する
            </IntentButton>
          )}
        </div>
      </header>
      {paged ? (
        <p className="text-sm">
          <Link to={here} className="text-brand-700 underline">
            最新の投稿に戻る
          </Link>
        </p>
      ) : null}
      <h2 className="text-xl font-bold">投稿</h2>
      <PostList page={page} viewerId={viewerId} emptyText="まだこのコミュニティへの投稿はありません。" />
    </section>
  );
}
