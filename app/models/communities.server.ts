import type { Database } from "~/infra/db/tables";
import { COMMUNITY_MEMBERS_SHOWN, USER_COMMUNITIES_MAX } from "~/lib/constants";
import { DomainError } from "~/lib/domain-error";

/**
 * Communities (docs/product.md#data): a group around a game that people with a profile join and post into. The member
 * count is kept on the community row, moved in the same transaction as the membership row and only when that row was
 * really written or removed, so it stays exact however many join or leave at once (ADR 022).
 */

export class CommunityError extends DomainError<403 | 404, "community_not_found" | "profile_required"> {}

export interface CommunityMember {
  uid: string;
  displayName: string;
  avatar: string | null;
}

export interface CommunitySummary {
  id: string;
  slug: string;
  name: string;
  description: string;
  membersCount: number;
  game: { slug: string; name: string };
}

export interface Community extends CommunitySummary {
  /** The viewer belongs to it (false when signed out). */
  isMember: boolean;
  /** The newest few members, for the page's row of avatars. */
  members: CommunityMember[];
}

function communitiesQuery(db: Database) {
  return db
    .selectFrom("communities as c")
    .innerJoin("games as g", "g.id", "c.game_id")
    .select(["c.id", "c.slug", "c.name", "c.description", "c.members_count", "c.game_id", "g.slug as game_slug", "g.name as game_name"]);
}
type CommunityRow = Awaited<ReturnType<ReturnType<typeof communitiesQuery>["executeTakeFirstOrThrow"]>>;

const toSummary = (row: CommunityRow): CommunitySummary => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  membersCount: row.members_count,
  game: { slug: row.game_slug, name: row.game_name },
});

/** A community by its slug, with its game, the viewer's membership and a few members; undefined when there is none. */
export async function getCommunity({ db, slug, viewerId }: { db: Database; slug: string; viewerId: string | null }): Promise<Community | undefined> {
  const row = await communitiesQuery(db).where("c.slug", "=", slug).executeTakeFirst();
  if (!row) return undefined;
  const [members, membership] = await Promise.all([
    db
      .selectFrom("community_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["u.id", "u.display_name", "u.avatar_url"])
      .where("m.community_id", "=", row.id)
      .orderBy("m.joined_at", "desc")
      .orderBy("m.user_id")
      .limit(COMMUNITY_MEMBERS_SHOWN)
      .execute(),
    viewerId
      ? db.selectFrom("community_members").select("user_id").where("community_id", "=", row.id).where("user_id", "=", viewerId).executeTakeFirst()
      : undefined,
  ]);
  return {
    ...toSummary(row),
    isMember: !!membership,
    members: members.map((member) => ({ uid: member.id, displayName: member.display_name, avatar: member.avatar_url })),
  };
}

/** Communities, the largest first: all of them, or a game's. */
export async function listCommunities({ db, gameSlug, limit = 50 }: { db: Database; gameSlug?: string; limit?: number }): Promise<CommunitySummary[]> {
  let query = communitiesQuery(db).orderBy("c.members_count", "desc").orderBy("c.name").limit(limit);
  if (gameSlug) query = query.where("g.slug", "=", gameSlug);
  return (await query.execute()).map(toSummary);
}

/** The communities a user belongs to (the post dialog's choice), by name. */
export async function listUserCommunities({
  db,
  userId,
  limit = USER_COMMUNITIES_MAX,
}: {
  db: Database;
  userId: string;
  /** At most USER_COMMUNITIES_MAX, by name. */
  limit?: number;
}): Promise<CommunitySummary[]> {
  const rows = await communitiesQuery(db)
    .innerJoin("community_members as m", "m.community_id", "c.id")
    .where("m.user_id", "=", userId)
    .orderBy("c.name")
    .orderBy("c.id")
    .limit(Math.min(limit, USER_COMMUNITIES_MAX))
    .execute();
  return rows.map(toSummary);
}

/** Moves a community's member count kept in its row (joined +1, left -1) and answers the new count. */
async function countMember(trx: Database, communityId: string, by: 1 | -1) {
  const { members_count } = await trx
    .updateTable("communities")
    .set((eb) => ({ members_count: eb("members_count", "+", by) }))
    .where("id", "=", communityId)
    .returning("members_count")
    .executeTakeFirstOrThrow();
  return members_count;
}

/**
 * Joins the community (a second join is a no-op). One transaction: the membership row is inserted unless it exists,
 * and the count moves only when it was inserted.
 */
export async function joinCommunity({ db, userId, slug }: { db: Database; userId: string; slug: string }): Promise<{ joined: boolean; community: CommunitySummary }> {
  return db.transaction().execute(async (trx) => {
    const profile = await trx.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
    if (!profile) throw new CommunityError(403, "profile_required");
    const row = await communitiesQuery(trx).where("c.slug", "=", slug).executeTakeFirst();
    if (!row) throw new CommunityError(404, "community_not_found");
    const inserted = await trx
      .insertInto("community_members")
      .values({ community_id: row.id, user_id: userId })
      .onConflict((oc) => oc.columns(["community_id", "user_id"]).doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (!inserted) return { joined: false, community: toSummary(row) };
    const membersCount = await countMember(trx, row.id, 1);
    return { joined: true, community: { ...toSummary(row), membersCount } };
  });
}

/** Leaves the community (leaving one you are not in is a no-op); the count moves only when a row was deleted. */
export async function leaveCommunity({ db, userId, slug }: { db: Database; userId: string; slug: string }): Promise<{ left: boolean; community: CommunitySummary }> {
  return db.transaction().execute(async (trx) => {
    const row = await communitiesQuery(trx).where("c.slug", "=", slug).executeTakeFirst();
    if (!row) throw new CommunityError(404, "community_not_found");
    const deleted = await trx.deleteFrom("community_members").where("community_id", "=", row.id).where("user_id", "=", userId).returning("user_id").executeTakeFirst();
    if (!deleted) return { left: false, community: toSummary(row) };
    const membersCount = await countMember(trx, row.id, -1);
    return { left: true, community: { ...toSummary(row), membersCount } };
  });
}
