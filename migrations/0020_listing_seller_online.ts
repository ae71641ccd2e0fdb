import { sql, type Kysely } from "kysely";

/**
 * Whether a listing's seller is online, kept on the listing (bench:scale). Explore's recommended order and
 * its online filter want the top-rated listings of the sellers online now. Found through the sellers (the presence
 * index), that meant every online seller's listings read and sorted for one page: at 1M users with 1 % online, 18,000
 * listings and 180–220 ms a page, keywords or not, because the planner cannot know how many are online (their
 * `last_seen_at` is newer than any statistics). `seller_online` mirrors `users.online_announced`, which presence flips
 * only when someone comes or goes (not at each heartbeat), so keeping it costs a few rows per flip; a partial index in
 * the rating order then yields the online listings best first, and a page stops after a page. The query still checks
 * `last_seen_at`, so a flag not yet flipped back changes nothing.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("listings").addColumn("seller_online", "boolean", (col) => col.notNull().defaultTo(false)).execute();
  await sql`
    create function gm_listing_seller_online() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'users' then
        update listings set seller_online = new.online_announced where seller_id = new.id and seller_online is distinct from new.online_announced;
        return null;
      end if;
      new.seller_online := coalesce((select online_announced from users where id = new.seller_id), false);
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger users_listing_seller_online after update of online_announced on users
    for each row when (old.online_announced is distinct from new.online_announced) execute function gm_listing_seller_online()`.execute(db);
  await sql`
    create trigger listings_seller_online before insert or update of seller_id on listings
    for each row execute function gm_listing_seller_online()`.execute(db);
  await sql`update listings l set seller_online = true from users u where u.id = l.seller_id and u.online_announced`.execute(db);
  await sql`
    create index listings_explore_online_idx on listings (seller_rating desc nulls last, created_at desc, id) where status = 'active' and seller_online`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index listings_explore_online_idx`.execute(db);
  await sql`drop trigger listings_seller_online on listings`.execute(db);
  await sql`drop trigger users_listing_seller_online on users`.execute(db);
  await sql`drop function gm_listing_seller_online()`.execute(db);
  await db.schema.alterTable("listings").dropColumn("seller_online").execute();
}
