import { sql, type Kysely } from "kysely";

/**
 * A game's number of active listings, kept on the game (bench:scale). Home's 人気のゲーム counted them
 * through the partial index of active listings, at most once a minute per process: at SCALE=10 (1.8M active
 * listings) the count took 570–820 ms, and the home request that fell on the refresh waited for it. Statement-level
 * triggers add up what each statement changed per game and apply it in the order of the games' ids, so two
 * statements touching the same games never wait on each other in a circle. (Transition tables cannot go with a
 * column list: any update of listings fires the update trigger, and one that moves no status or game adds nothing.)
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("games")
    .addColumn("active_listings_count", "integer", (col) => col.notNull().defaultTo(0).check(sql`active_listings_count >= 0`))
    .execute();
  await sql`
    create function gm_game_listing_counts() returns trigger language plpgsql as $$
    declare
      change record;
    begin
      if tg_op = 'INSERT' then
        for change in select game_id, count(*)::int as delta from new_rows where status = 'active' group by game_id order by game_id loop
          update games set active_listings_count = active_listings_count + change.delta where id = change.game_id;
        end loop;
      elsif tg_op = 'DELETE' then
        for change in select game_id, -count(*)::int as delta from old_rows where status = 'active' group by game_id order by game_id loop
          update games set active_listings_count = active_listings_count + change.delta where id = change.game_id;
        end loop;
      else
        for change in
          select game_id, sum(delta)::int as delta
          from (select game_id, 1 as delta from new_rows where status = 'active' union all select game_id, -1 from old_rows where status = 'active') moved
          group by game_id having sum(delta) <> 0 order by game_id
        loop
          update games set active_listings_count = active_listings_count + change.delta where id = change.game_id;
        end loop;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger listings_game_counts_insert after insert on listings referencing new table as new_rows
    for each statement execute function gm_game_listing_counts()`.execute(db);
  await sql`
    create trigger listings_game_counts_update after update on listings referencing old table as old_rows new table as new_rows
    for each statement execute function gm_game_listing_counts()`.execute(db);
  await sql`
    create trigger listings_game_counts_delete after delete on listings referencing old table as old_rows
    for each statement execute function gm_game_listing_counts()`.execute(db);
  await sql`update games g set active_listings_count = (select count(*) from listings l where l.game_id = g.id and l.status = 'active')`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger listings_game_counts_delete on listings`.execute(db);
  await sql`drop trigger listings_game_counts_update on listings`.execute(db);
  await sql`drop trigger listings_game_counts_insert on listings`.execute(db);
  await sql`drop function gm_game_listing_counts()`.execute(db);
  await db.schema.alterTable("games").dropColumn("active_listings_count").execute();
}
