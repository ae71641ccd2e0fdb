import { sql, type Kysely } from "kysely";

/**
 * Explore (ADR 023): what `/explore` filters, sorts and searches on, kept on the listing row so each
 * query is one index scan of `listings`.
 * - The seller's rating: `users.rating_count`/`rating_sum` move with each review (a trigger, so every path that
 *   writes a review, the model, the seed and bulk loads alike, keeps them right) and are copied onto the seller's
 *   listings (`seller_rating` the mean, `seller_rating_count`), which the rating sort and filter read.
 * - The keyword search: `search_text` is the listing's title, its seller's display name and its game's name and
 *   kana, normalised by `gm_search_text` (NFKC, lower case, katakana as hiragana); `search_grams` its two-character
 *   pieces under a GIN index. A query's pieces must all be there (the index), then its text (a LIKE on the row).
 *   Triggers keep both right when a title, a display name or a game's name changes.
 */

/** Katakana ァ..ヶ and the hiragana ぁ..ゖ they read as (the same distance apart in Unicode). */
const KATAKANA = Array.from({ length: 0x30f6 - 0x30a1 + 1 }, (_, index) => String.fromCodePoint(0x30a1 + index)).join("");
const HIRAGANA = Array.from({ length: 0x30f6 - 0x30a1 + 1 }, (_, index) => String.fromCodePoint(0x3041 + index)).join("");

export async function up(db: Kysely<any>) {
  await sql`
    create function gm_search_text(value text) returns text language sql immutable parallel safe as $$
      select btrim(regexp_replace(translate(lower(normalize(coalesce(value, ''), NFKC)), ${sql.lit(KATAKANA)}, ${sql.lit(HIRAGANA)}), '\\s+', ' ', 'g'))
    $$`.execute(db);
  await sql`
    create function gm_bigrams(value text) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(distinct piece), '{}')
      from (select substr(value, i, 2) as piece from generate_series(1, char_length(value) - 1) as i) as pieces
      where piece !~ '\\s'
    $$`.execute(db);

  await db.schema
    .alterTable("users")
    .addColumn("rating_count", "integer", (col) => col.notNull().defaultTo(0).check(sql`rating_count >= 0`))
    .addColumn("rating_sum", "integer", (col) => col.notNull().defaultTo(0).check(sql`rating_sum >= 0`))
    .execute();
  await db.schema
    .alterTable("listings")
    .addColumn("seller_rating", "numeric(3, 2)")
    .addColumn("seller_rating_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("search_text", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("search_grams", sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'`))
    .execute();

  // A listing written: its search text from its title, seller and game, and its seller's rating.
  await sql`
    create function gm_listing_derived() returns trigger language plpgsql as $$
    declare
      seller record;
      game record;
    begin
      select display_name, rating_count, rating_sum into seller from users where id = new.seller_id;
      select name, name_kana into game from games where id = new.game_id;
      new.search_text := gm_search_text(concat_ws(' ', new.title, seller.display_name, game.name, game.name_kana));
      new.search_grams := gm_bigrams(new.search_text);
      new.seller_rating_count := coalesce(seller.rating_count, 0);
      new.seller_rating := case when seller.rating_count > 0 then round(seller.rating_sum::numeric / seller.rating_count, 2) end;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger listings_derived before insert or update of title, seller_id, game_id on listings
    for each row execute function gm_listing_derived()`.execute(db);

  // A review: the reviewee's totals, and the rating on their listings.
  await sql`
    create function gm_review_rating() returns trigger language plpgsql as $$
    begin
      update users set rating_count = rating_count + 1, rating_sum = rating_sum + new.rating where id = new.reviewee_id;
      update listings l set seller_rating_count = u.rating_count, seller_rating = round(u.rating_sum::numeric / u.rating_count, 2)
        from users u where u.id = new.reviewee_id and l.seller_id = u.id;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger reviews_rating after insert on reviews for each row execute function gm_review_rating()`.execute(db);

  // A new display name or game name: the search text of the listings that carry it (the listing trigger rebuilds it).
  await sql`
    create function gm_refresh_listing_search() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'users' then
        update listings set title = title where seller_id = new.id;
      else
        update listings set title = title where game_id = new.id;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger users_listing_search after update of display_name on users
    for each row when (old.display_name is distinct from new.display_name) execute function gm_refresh_listing_search()`.execute(db);
  await sql`
    create trigger games_listing_search after update of name, name_kana on games
    for each row when (old.name is distinct from new.name or old.name_kana is distinct from new.name_kana) execute function gm_refresh_listing_search()`.execute(db);

  // What was there before: the totals of existing reviews, then every listing through its trigger.
  await sql`
    update users u set rating_count = r.n, rating_sum = r.total
    from (select reviewee_id, count(*)::int as n, sum(rating)::int as total from reviews group by reviewee_id) r
    where r.reviewee_id = u.id`.execute(db);
  await sql`update listings set title = title`.execute(db);

  // One index per sort, each over active listings only (what explore shows), plus the keyword pieces.
  const active = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on("listings").columns(columns).where(sql.ref("status"), "=", "active").execute();
  await active("listings_explore_newest_idx", ["created_at desc", "id"]);
  await active("listings_explore_price_idx", ["price_per_unit", "created_at desc", "id"]);
  await sql`create index listings_explore_rating_idx on listings (seller_rating desc nulls last, created_at desc, id) where status = 'active'`.execute(db);
  await sql`create index listings_search_grams_idx on listings using gin (search_grams) where status = 'active'`.execute(db);
}

export async function down(db: Kysely<any>) {
  for (const index of ["listings_search_grams_idx", "listings_explore_rating_idx", "listings_explore_price_idx", "listings_explore_newest_idx"]) {
    await db.schema.dropIndex(index).execute();
  }
  await sql`drop trigger games_listing_search on games`.execute(db);
  await sql`drop trigger users_listing_search on users`.execute(db);
  await sql`drop trigger reviews_rating on reviews`.execute(db);
  await sql`drop trigger listings_derived on listings`.execute(db);
  await sql`drop function gm_refresh_listing_search(), gm_review_rating(), gm_listing_derived()`.execute(db);
  await db.schema.alterTable("listings").dropColumn("search_grams").dropColumn("search_text").dropColumn("seller_rating_count").dropColumn("seller_rating").execute();
  await db.schema.alterTable("users").dropColumn("rating_sum").dropColumn("rating_count").execute();
  await sql`drop function gm_bigrams(text), gm_search_text(text)`.execute(db);
}
