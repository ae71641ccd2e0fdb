import { sql } from "kysely";
import type { Database } from "~/infra/db/tables";
import { discordGuildIconUrl, type DiscordGuild } from "~/infra/discord";
import { DISCORD_GUILDS_MAX, SHARED_GUILDS_SHOWN } from "~/lib/constants";
import { isStorableText } from "~/lib/validation/fields";

/**
 * The Discord servers a gamer is in: kept from their last Discord sign-in (the embedded auth server's callback writes
 * them with `replaceDiscordGuilds`), shown on a profile only as the servers it shares with the viewer, and only when
 * both turned that on in `/settings/privacy` (off by default). Nothing else about them leaves the database.
 */

export interface SharedGuild {
  id: string;
  name: string;
  /** The icon on Discord's CDN, or null when the server has none. */
  iconUrl: string | null;
}

/**
 * The servers both the viewer and the profile's gamer are in, by name, at most SHARED_GUILDS_SHOWN; none unless both
 * agreed to show them, both are still here, and neither blocked the other (a block must not leave a way to find
 * someone elsewhere). One query, so a profile view costs one round trip.
 */
export async function listSharedGuilds({
  db,
  viewerId,
  profileId,
  cdnUrl,
}: {
  db: Database;
  viewerId: string;
  profileId: string;
  cdnUrl: string;
}): Promise<SharedGuild[]> {
  if (viewerId === profileId) return [];
  const rows = await db
    .selectFrom("discord_guilds as mine")
    .innerJoin("discord_guilds as theirs", "theirs.guild_id", "mine.guild_id")
    .innerJoin("users as viewer", "viewer.id", "mine.user_id")
    .innerJoin("users as owner", "owner.id", "theirs.user_id")
    .select(["theirs.guild_id as id", "theirs.name", "theirs.icon"])
    .where("mine.user_id", "=", viewerId)
    .where("theirs.user_id", "=", profileId)
    .where("viewer.show_discord_guilds", "=", true)
    .where("owner.show_discord_guilds", "=", true)
    .where("viewer.deleted_at", "is", null)
    .where("owner.deleted_at", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("user_blocks as b")
            .select("b.blocker_id")
            .where((b) =>
              b.or([
                b.and([b("b.blocker_id", "=", viewerId), b("b.blocked_id", "=", profileId)]),
                b.and([b("b.blocker_id", "=", profileId), b("b.blocked_id", "=", viewerId)]),
              ]),
            ),
        ),
      ),
    )
    // The profile's own copy of the name: what its gamer's last sign-in saw. The id breaks ties between equal names.
    .orderBy("theirs.name")
    .orderBy("theirs.guild_id")
    .limit(SHARED_GUILDS_SHOWN)
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, iconUrl: discordGuildIconUrl(cdnUrl, { id: row.id, icon: row.icon }) }));
}

/** What `/settings/privacy` shows: the choice, and how many servers are kept for the gamer now. */
export async function getGuildPrivacy({ db, userId }: { db: Database; userId: string }): Promise<{ showDiscordGuilds: boolean; storedGuilds: number }> {
  const row = await db
    .selectFrom("users as u")
    .select((eb) => [
      "u.show_discord_guilds",
      eb.selectFrom("discord_guilds as g").select((g) => g.fn.countAll<string>().as("n")).whereRef("g.user_id", "=", "u.id").as("stored"),
    ])
    .where("u.id", "=", userId)
    .executeTakeFirst();
  return { showDiscordGuilds: row?.show_discord_guilds ?? false, storedGuilds: Number(row?.stored ?? 0) };
}

/** Turns showing shared servers on profiles on or off. */
export async function setShowDiscordGuilds({ db, userId, show }: { db: Database; userId: string; show: boolean }) {
  await db.updateTable("users").set({ show_discord_guilds: show, updated_at: sql<Date>`now()` }).where("id", "=", userId).execute();
}

/**
 * The servers as Discord lists them at a sign-in, in its transaction: refreshed every time, so one left is gone from
 * profiles. At most DISCORD_GUILDS_MAX, and none whose name is not text the product stores.
 */
export async function replaceDiscordGuilds(trx: Database, { userId, identityId, guilds }: { userId: string; identityId: string; guilds: readonly DiscordGuild[] }) {
  await trx.deleteFrom("discord_guilds").where("user_id", "=", userId).execute();
  const kept = guilds.slice(0, DISCORD_GUILDS_MAX).filter((guild) => isStorableText(guild.name));
  if (kept.length) {
    await trx
      .insertInto("discord_guilds")
      .values(kept.map((guild) => ({ user_id: userId, guild_id: guild.id, identity_id: identityId, name: guild.name, icon: guild.icon })))
      .onConflict((oc) => oc.columns(["user_id", "guild_id"]).doNothing())
      .execute();
  }
}
