import { sql } from "kysely";
import type { Database } from "../../server/db/schema";
import type { Realtime } from "../../server/realtime";
import type { ProfileInput } from "~/lib/schemas";
import { publishNotifications, recordNotifications, welcomeNotification } from "./notification.server";

export interface Profile {
  uid: string;
  displayName: string;
  avatarUrl: string | null;
  bio: string;
  games: Array<{ slug: string; name: string; rank: string }>;
  createdAt: string;
}

export interface SubscriptionSummary {
  subscribee: { uid: string; displayName: string };
  expiresAt: string;
}

export class UnknownGameError extends Error {}

export async function getProfile({ db, userId }: { db: Database; userId: string }): Promise<Profile | null> {
  const user = await db
    .selectFrom("users")
    .select(["id", "display_name", "avatar_url", "bio", "created_at"])
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
  };
}

/**
 * Creates or updates the caller's profile and replaces their games, in one transaction.
 * Answers whether the profile was created (its first setup) and the saved profile. A first setup
 * also brings the welcome notification, stored in the same transaction.
 */
export async function saveProfile({ db, realtime, userId, input }: { db: Database; realtime: Realtime; userId: string; input: ProfileInput }) {
  const { created, welcome } = await db.transaction().execute(async (trx) => {
    const games = input.games.length
      ? await trx.selectFrom("games").select(["id", "slug"]).where("slug", "in", input.games.map((game) => game.slug)).execute()
      : [];
    if (games.length !== input.games.length) throw new UnknownGameError();
    const row = await trx
      .insertInto("users")
      .values({ id: userId, display_name: input.displayName, bio: input.bio, avatar_url: input.avatarUrl ?? null })
      .onConflict((oc) =>
        oc.column("id").doUpdateSet({
          display_name: input.displayName,
          bio: input.bio,
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
  const rows = await db
    .selectFrom("subscriptions as s")
    .innerJoin("users as u", "u.id", "s.subscribee_id")
    .select(["s.subscribee_id", "u.display_name", "s.expires_at"])
    .where("s.subscriber_id", "=", userId)
    .where("s.expires_at", ">", sql<Date>`now()`)
    .orderBy("s.expires_at")
    .execute();
  return rows.map((row) => ({
    subscribee: { uid: row.subscribee_id, displayName: row.display_name },
    expiresAt: row.expires_at.toISOString(),
  }));
}
