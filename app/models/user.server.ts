import { sql, type Transaction } from "kysely";
import type { DB, Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { SUBSCRIPTIONS_LIST_MAX } from "~/lib/constants";
import type { ProfileInput } from "~/lib/validation/profile";
import { publishNotifications, recordNotifications, welcomeNotification } from "./notification.server";

export interface Profile {
  uid: string;
  displayName: string;
  avatarUrl: string | null;
  bio: string;
  games: Array<{ slug: string; name: string; rank: string }>;
  createdAt: string;
  /** The account left (退会): shown as 「退会したユーザー」 with nothing else, and nobody starts anything new with it. */
  left: boolean;
  /** Suspended or banned by the operators (ADR 030): marked, and nobody starts anything new with it meanwhile. */
  suspended: boolean;
}

export interface SubscriptionSummary {
  subscribee: { uid: string; displayName: string };
  expiresAt: string;
}

export class UnknownGameError extends Error {}

export async function getProfile({ db, userId }: { db: Database; userId: string }): Promise<Profile | null> {
  const user = await db
    .selectFrom("users")
    .select(["id", "display_name", "avatar_url", "bio", "created_at", "deleted_at", sql<boolean>`(banned_at is not null or coalesce(suspended_until > now(), false))`.as("suspended")])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return null;
  const games = await db
    .selectFrom("user_games as ug")
    .innerJoin("games as g", "g.id", "ug.game_id")
    .select(["g.slug", "g.name", "ug.rank"])
    .where("ug.user_id", "=", userId)
    .orderBy("g.sort_order")
    .execute();
  return {
    uid: user.id,
    displayName: user.display_name,
    avatarUrl: user.avatar_url,
    bio: user.bio,
    games,
    createdAt: user.created_at.toISOString(),
    left: user.deleted_at !== null,
    suspended: user.suspended,
  };
}

/**
 * Holds these users' rows (`FOR SHARE`, in id order) for the rest of the transaction and answers those that exist,
 * have not left and are not suspended or banned. What starts something with a person (a booking, a subscription, a
 * tip) takes it first: leaving (退会) and a suspension lock the user's row for update before they look at what is
 * open, so the two take turns and nothing new reaches an account that left or was stopped, nor slips past what
 * leaving checks and a suspension cancels (ADR 028, ADR 030).
 */
export async function lockPresentUsers(trx: Transaction<DB>, userIds: string[]): Promise<Set<string>> {
  const ids = [...new Set(userIds)].sort();
  if (ids.length === 0) return new Set();
  const rows = await trx
    .selectFrom("users")
    .select(["id", "deleted_at", sql<boolean>`(banned_at is not null or coalesce(suspended_until > now(), false))`.as("stopped")])
    .where("id", "in", ids)
    .orderBy("id")
    .forShare()
    .execute();
  return new Set(rows.filter((row) => row.deleted_at === null && !row.stopped).map((row) => row.id));
}

/**
 * Creates or updates the caller's profile and replaces their games, in one transaction.
 * Answers whether the profile was created (its first setup) and the saved profile. A first setup
 * also brings the welcome notification, stored in the same transaction.
 * `email` is the signed-in user's address (their token's), where notification mails go; each save sets it again.
 */
export async function saveProfile({
  db,
  realtime,
  userId,
  email,
  input,
}: {
  db: Database;
  realtime: Realtime;
  userId: string;
  email?: string | null;
  input: ProfileInput;
}) {
  // The local auth server's address wins over the token's, which may predate an e-mail change; with hosted
  // Supabase there is no such row and the token's address is the one there is.
  const address = sql<string | null>`coalesce((select au.email from auth_users au where au.id = ${userId} and au.deleted_at is null), ${email || null}::text)`;
  const { created, welcome } = await db.transaction().execute(async (trx) => {
    const games = input.games.length
      ? await trx.selectFrom("games").select(["id", "slug"]).where("slug", "in", input.games.map((game) => game.slug)).execute()
      : [];
    if (games.length !== input.games.length) throw new UnknownGameError();
    const row = await trx
      .insertInto("users")
      .values({ id: userId, display_name: input.displayName, bio: input.bio, avatar_url: input.avatarUrl ?? null, email: address })
      .onConflict((oc) =>
        oc.column("id").doUpdateSet({
          display_name: input.displayName,
          bio: input.bio,
          email: sql<string | null>`coalesce(${address}, users.email)`,
          // A profile form without the avatar (the page uploads it on its own) keeps the one there is.
          ...(input.avatarUrl !== undefined ? { avatar_url: input.avatarUrl } : {}),
          updated_at: sql<Date>`now()`,
        }),
      )
      // xmax is 0 for a freshly inserted row: tells a first setup from an edit without a second query.
      .returning(sql<boolean>`(xmax = 0)`.as("inserted"))
      .executeTakeFirstOrThrow();
    await trx.deleteFrom("user_games").where("user_id", "=", userId).execute();
    const idBySlug = new Map(games.map((game) => [game.slug, game.id]));
    if (input.games.length) {
      await trx
        .insertInto("user_games")
        .values(input.games.map((game) => ({ user_id: userId, game_id: idBySlug.get(game.slug)!, rank: game.rank })))
        .execute();
    }
    const welcome = row.inserted ? await recordNotifications(trx, [welcomeNotification(userId)]) : [];
    return { created: row.inserted, welcome };
  });
  publishNotifications(realtime, welcome);
  return { created, profile: (await getProfile({ db, userId }))! };
}

/** Sets (an uploaded image's URL) or removes (null) the user's avatar. */
export async function setAvatar({ db, userId, avatarUrl }: { db: Database; userId: string; avatarUrl: string | null }) {
  await db.updateTable("users").set({ avatar_url: avatarUrl, updated_at: sql<Date>`now()` }).where("id", "=", userId).execute();
}

/** The caller's subscriptions that are still active (expiresAt in the future). */
export async function listActiveSubscriptions({ db, userId }: { db: Database; userId: string }): Promise<SubscriptionSummary[]> {
  // The soonest to end first, SUBSCRIPTIONS_LIST_MAX at most.
  const rows = await db
    .selectFrom("subscriptions as s")
    .innerJoin("users as u", "u.id", "s.subscribee_id")
    .select(["s.subscribee_id", "u.display_name", "s.expires_at"])
    .where("s.subscriber_id", "=", userId)
    .where("s.expires_at", ">", sql<Date>`now()`)
    .orderBy("s.expires_at")
    .orderBy("s.subscribee_id")
    .limit(SUBSCRIPTIONS_LIST_MAX)
    .execute();
  return rows.map((row) => ({
    subscribee: { uid: row.subscribee_id, displayName: row.display_name },
    expiresAt: row.expires_at.toISOString(),
  }));
}
