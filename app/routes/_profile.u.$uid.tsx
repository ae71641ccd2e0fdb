import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { GameChips } from "~/components/game-chips";
import { IntentButton } from "~/components/intent-button";
import { ReportLink } from "~/components/moderation-slots";
import { NewPostLink } from "~/components/post-dialog";
import { Avatar } from "~/components/presence";
import { RatingSummary } from "~/components/star-rating";
import { requireUser } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatNumber } from "~/lib/format";
import { messages } from "~/lib/messages";
import { pageMeta } from "~/lib/meta";
import { parseParams } from "~/lib/params";
import { formatDateTime, isoString } from "~/lib/time";
import { uuidParam } from "~/lib/validation/fields";
import { blockStatus, blockUser, unblockUser } from "~/models/blocks.server";
import { ChatError } from "~/models/chat.server";
import { listSharedGuilds, type SharedGuild } from "~/models/discord-guilds.server";
import { recordFootprint } from "~/models/footprints.server";
import { onlineUserIds } from "~/models/presence.server";
import { ratingsOf } from "~/models/reviews.server";
import { getPlan, subscriptionTo } from "~/models/subscriptions.server";
import { getProfile } from "~/models/user.server";

const paramsSchema = z.object({ uid: uuidParam });

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data ? `${data.profile.displayName}さんのプロフィール` : "プロフィール");

/**
 * `/u/{uid}`: a person's profile (avatar with presence, name, bio, games, rating) above its three tabs. A malformed
 * uid is a fatal 404 (docs/product.md#validation), an unknown one the 404 page. A signed-in visitor leaves a footprint.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { uid } = parseParams(paramsSchema, params, request);
  const viewer = await context.auth.getUser();
  const viewerId = viewer?.id ?? null;
  const profile = await getProfile({ db: context.readDb, userId: uid });
  if (!profile) throw new Response(null, { status: 404 });
  const isSelf = viewerId === uid;
  const [online, ratings, blocks, plan, subscription, sharedGuilds] = await Promise.all([
    onlineUserIds({ db: context.db, viewerId, userIds: [uid] }),
    ratingsOf(context.readDb, [uid]),
    viewerId && !isSelf ? blockStatus({ db: context.db, viewerId, otherId: uid }) : { byViewer: false, ofViewer: false },
    getPlan({ db: context.readDb, sellerId: uid }),
    viewerId && !isSelf ? subscriptionTo({ db: context.db, subscriberId: viewerId, subscribeeId: uid }) : null,
    // Only while Discord sign-in is on: its CDN, where the icons are, is allowed by the page's CSP only then.
    viewerId && !isSelf && context.auth.publicConfig.discord ? listSharedGuilds({ db: context.db, viewerId, profileId: uid, cdnUrl: context.config.DISCORD_CDN_URL }) : [],
    viewerId && !isSelf && !profile.left ? recordFootprint({ db: context.db, visitorId: viewerId, visitedId: uid }) : null,
  ]);
  // Said from here, so the page's code does not carry these rare lines (README "Page weight").
  const standing = profile.left ? messages.account.userLeft : profile.suspended ? messages.moderation.suspendedUser : null;
  return { profile, standing, online: online.has(uid), rating: ratings.get(uid)!, isSelf, signedIn: !!viewer, blocks, plan, subscription, sharedGuilds };
}

const blockFormSchema = z.object({ intent: z.enum(["block", "unblock"]) });

/** The block and unblock buttons (plain forms). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { uid } = parseParams(paramsSchema, params, request);
  const user = await requireUser(request, context);
  const form = blockFormSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!form.success) throw new Response(messages.validation.checkInput, { status: 400 });
  try {
    if (form.data.intent === "block") await blockUser({ db: context.db, blockerId: user.id, blockedId: uid });
    else await unblockUser({ db: context.db, blockerId: user.id, blockedId: uid });
  } catch (error) {
    if (error instanceof ChatError) throw new Response(null, { status: error.status === 404 ? 404 : 400 });
    throw error;
  }
  const { pathname } = new URL(request.url);
  throw await redirectWithToast(request, context.config, pathname, {
    type: "success",
    title: form.data.intent === "block" ? messages.profiles.blocked : messages.profiles.unblocked,
  });
}

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `-mb-px border-b-2 px-3 py-2 text-sm font-semibold whitespace-nowrap ${isActive ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`;

export default function ProfileLayout() {
  const { profile, standing, online, rating, isSelf, signedIn, blocks, plan, subscription, sharedGuilds } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  const base = `/u/${profile.uid}`;
  return (
    <div className="space-y-6">
      <section aria-labelledby="profile-name" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-start gap-4">
          <Avatar name={profile.displayName} src={profile.avatarUrl} size="lg" presence={{ userId: profile.uid, online }} />
          <div className="min-w-0 flex-1 space-y-1">
            <h1 id="profile-name" className="text-2xl font-bold break-words">
              {profile.displayName}
            </h1>
            <RatingSummary rating={rating} />
          </div>
        </div>
        {profile.bio ? <p className="mt-4 whitespace-pre-wrap break-words text-slate-700">{profile.bio}</p> : null}
        <div className="mt-4">
          <GameChips games={profile.games} />
        </div>
        {sharedGuilds.length > 0 ? <SharedGuilds guilds={sharedGuilds} /> : null}
        <div className="mt-5 flex flex-wrap items-center gap-2">
          {isSelf ? (
            <>
              <NewPostLink className="btn-primary">投稿する</NewPostLink>
              <Link to="/mypage/gamer-edit" className="btn-secondary">
                プロフィール編集
              </Link>
              <Link to="/mypage/footprints" className="btn-secondary">
                足あと
              </Link>
              <Link to="/settings/store/subscription" className="btn-secondary">
                サブスクプラン
              </Link>
            </>
          ) : standing ? (
            <p className="text-sm font-semibold text-slate-700">{standing}</p>
          ) : signedIn ? (
            <>
              {blocks.byViewer || blocks.ofViewer ? null : (
                <Link to={`/chat?with=${profile.uid}`} className="btn-primary">
                  チャットする
                </Link>
              )}
              <IntentButton intent={blocks.byViewer ? "unblock" : "block"} action={base} className="btn-secondary">
                {blocks.byViewer ? "ブロックを解除" : "ブロックする"}
              </IntentButton>
              <ReportLink type="user" id={profile.uid} className="btn-secondary" />
            </>
          ) : (
            <Link to={`/login?${new URLSearchParams({ redirectTo: pathname + search })}`} className="btn-primary">
              ログインしてチャットする
            </Link>
          )}
        </div>
        {plan && !isSelf && !blocks.ofViewer && !profile.suspended ? (
          <div className="mt-4 flex flex-wrap items-center gap-3 rounded-lg bg-amber-50 px-4 py-3">
            <p className="min-w-0 flex-1 text-sm text-amber-950">
              {subscription?.active ? (
                <>
                  サブスク中（<time dateTime={isoString(subscription.expiresAt)}>{formatDateTime(subscription.expiresAt)}</time>まで）
                </>
              ) : (
                <>{`サブスク限定の投稿が見られます：${formatNumber(plan.monthlyPrice)}コイン / 30日`}</>
              )}
              {plan.description ? <span className="mt-1 block whitespace-pre-wrap break-words text-amber-900">{plan.description}</span> : null}
            </p>
            <Link to={`${base}/subscribe`} className="btn-primary">
              {subscription?.active ? "更新する" : "サブスクする"}
            </Link>
          </div>
        ) : null}
        {blocks.byViewer ? <p className="mt-3 text-sm text-slate-600">このユーザーをブロックしています。相手からのチャット・予約・レビューは届かず、相手の投稿も表示されません。</p> : null}
      </section>
      <nav aria-label="プロフィールのページ" className="flex gap-1 overflow-x-auto border-b border-slate-200">
        <NavLink to={base} end className={tabClass}>
          プロフィール
        </NavLink>
        <NavLink to={`${base}/posts`} className={tabClass}>
          投稿
        </NavLink>
        <NavLink to={`${base}/gallery`} className={tabClass}>
          ギャラリー
        </NavLink>
      </nav>
      <Outlet />
    </div>
  );
}

/**
 * The Discord servers the viewer shares with this gamer, both having agreed in /settings/privacy. Its words
 * are here, not in ~/lib/messages/privacy: a module both this page and the settings page import becomes a chunk of its
 * own that every profile view would fetch.
 */
function SharedGuilds({ guilds }: { guilds: readonly SharedGuild[] }) {
  return (
    <section aria-labelledby="shared-guilds-title" className="mt-4">
      <h2 id="shared-guilds-title" className="text-sm font-semibold text-slate-700">
        共通のDiscordサーバー
      </h2>
      <ul className="mt-2 flex flex-wrap gap-2">
        {guilds.map((guild) => (
          <li key={guild.id} className="flex max-w-full min-w-0 items-center gap-2 rounded-full bg-slate-100 py-1 pr-3 pl-1 text-sm text-slate-800">
            {guild.iconUrl ? (
              <img src={guild.iconUrl} alt="" width={32} height={32} loading="lazy" className="size-8 shrink-0 rounded-full" />
            ) : (
              <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700">
                {Array.from(guild.name)[0]}
              </span>
            )}
            <span className="min-w-0 truncate">{guild.name}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
