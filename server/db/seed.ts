import { hashPassword } from "../../app/infra/auth/passwords";
import type { Database } from "../../app/infra/db/tables";
import type { ImageStorage } from "../../app/infra/storage";
import { COIN_PACKAGES } from "../../app/lib/constants";
import { creditPurchase } from "../../app/models/coins.server";
import { chatStartedNotification, recordNotifications, welcomeNotification } from "../../app/models/notification.server";
import { seedDemoCommunities, seedDemoCommunityMembers, seedDemoEvents, seedDemoPosts } from "./seed/community";
import { DEMO_ACCOUNTS, DEMO_CONVERSATION, DEMO_GAMES, DEMO_PASSWORD } from "./seed/demo-data";
import { seedDemoSellers, seedDemoListingsAndBookings } from "./seed/listings-and-bookings";

export { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./seed/demo-data";

/**
 * Demo data for an empty database, so a newcomer sees a living site. Each feature adds its part
 * here; `SEED=none` skips all of it.
 */
export async function seedDemoData(db: Database, { demoAccounts = false, storage }: { demoAccounts?: boolean; storage?: ImageStorage } = {}) {
  if (demoAccounts && !storage) throw new Error("seeding demo accounts needs the image storage (their avatars and posts)");
  const passwordHash = demoAccounts ? await hashPassword(DEMO_PASSWORD) : "";
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("games").values(DEMO_GAMES).onConflict((oc) => oc.column("slug").doNothing()).execute();
    const games = new Map((await trx.selectFrom("games").select(["id", "slug"]).execute()).map((game) => [game.slug, game.id]));
    // Communities need no accounts: they are there in production too, with members once people join.
    const communities = await seedDemoCommunities(trx, games);
    // Events are there in production too; their demo participants only with the demo accounts, once those exist.
    if (!demoAccounts) return seedDemoEvents(trx, { withParticipants: false });
    for (const account of DEMO_ACCOUNTS) {
      await trx.insertInto("auth_users").values({ id: account.id, email: account.email, password_hash: passwordHash, email_confirmed_at: new Date() }).onConflict((oc) => oc.doNothing()).execute();
      await trx
        .insertInto("users")
        .values({ id: account.id, display_name: account.displayName, bio: account.bio, email: account.email })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .insertInto("user_games")
        .values(account.games.map(([slug, rank]) => ({ user_id: account.id, game_id: games.get(slug)!, rank })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await seedDemoEvents(trx, { withParticipants: true });
    // Each demo account has bought coins once (test provider), so the header and coin history show something.
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      const pack = COIN_PACKAGES[[2, 4, 1][index] ?? 0]!;
      const order = await trx
        .insertInto("coin_orders")
        .values({ user_id: account.id, package_id: pack.id, coins: pack.coins, price_jpy: pack.price, provider: "test", status: "paid", idempotency_key: "demo-seed", settled_at: new Date() })
        .onConflict((oc) => oc.doNothing())
        .returning("id")
        .executeTakeFirst();
      if (order) await creditPurchase(trx, { userId: account.id, coins: pack.coins, reference: `coin_order:${order.id}` });
    }
    await seedDemoListingsAndBookings(trx, games);
    await seedDemoSellers(trx, games, passwordHash);
    await seedDemoPosts(trx, storage!);
    await seedDemoCommunityMembers(trx, communities);
    // A conversation between the first two, so /chat is not empty for a newcomer.
    const [minato, sora] = DEMO_ACCOUNTS;
    const room = await trx
      .insertInto("chat_rooms")
      .values({ type: "DIRECT", direct_key: [minato.id, sora.id].sort().join(":") })
      .onConflict((oc) => oc.column("direct_key").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!room) return;
    await trx.insertInto("chat_participants").values([minato, sora].map((account) => ({ room_id: room.id, user_id: account.id }))).execute();
    await trx
      .insertInto("chat_messages")
      .values(DEMO_CONVERSATION.map(([from, content]) => ({ room_id: room.id, sender_id: from === 0 ? minato.id : sora.id, content })))
      .execute();
    // What a real first day leaves in the bell: the welcome, and Sora having started the chat with Minato.
    await recordNotifications(trx, [
      ...DEMO_ACCOUNTS.map((account) => welcomeNotification(account.id)),
      chatStartedNotification({ userId: minato.id, byName: sora.displayName, roomId: room.id }),
    ]);
  });
}
