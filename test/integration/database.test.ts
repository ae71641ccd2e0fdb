import { sql } from "kysely";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../app/infra/db";
import { migrations } from "../../migrations";
import { migrateToLatest } from "../../server/db/migrate";
import { seedDemoData } from "../../server/db/seed";
import { createTestDatabase, type TestDatabase } from "../support/database";

// PGlite always; PostgreSQL too when TEST_DATABASE_URL is set, so CI proves the same migrations on both.
const engines = (["pglite", "postgres"] as const).filter((engine) => engine === "pglite" || process.env.TEST_DATABASE_URL);
const opened: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(opened.map((database) => database.dispose()));
});

describe.each(engines)("on %s", (engine) => {
  const open = async (options: Parameters<typeof createTestDatabase>[0] = {}) => {
    const database = await createTestDatabase({ engine, ...options });
    opened.push(database);
    return database;
  };

  it("applies every migration to an empty database, then nothing twice", async () => {
    const { db } = await open({ migrate: false });
    const first = await migrateToLatest(db);
    expect(first.wasEmpty).toBe(true);
    expect(first.applied).toEqual(Object.keys(migrations));
    const second = await migrateToLatest(db);
    expect(second).toEqual({ wasEmpty: false, applied: [] });
  });

  it("starts a migrated database as the run's template, which is what the migrations make (ADR 060)", async () => {
    expect(inject(engine === "pglite" ? "pgliteTemplate" : "postgresTemplate"), "the run's template").toBeTruthy();
    const fromTemplate = await open();
    const migratedHere = await open({ migrate: false });
    await migrateToLatest(migratedHere.db);
    const [template, here] = await Promise.all([schemaOf(fromTemplate.db), schemaOf(migratedHere.db)]);
    expect(template.length).toBeGreaterThan(100);
    expect(template).toEqual(here);
  });

  it.runIf(engine === "postgres")("opens PostgreSQL sessions without parallel workers or JIT (ADR 042, ADR 045)", async () => {
    const { url } = await open({ migrate: false });
    const handle = await openDatabase({ url });
    try {
      const { rows } = await sql<{ workers: string; jit: string }>`
        select current_setting('max_parallel_workers_per_gather') as workers, current_setting('jit') as jit`.execute(handle.db);
      expect(rows).toEqual([{ workers: "0", jit: "off" }]);
    } finally {
      await handle.close();
    }
  });

  it("seeds the demo games idempotently", async () => {
    const { db } = await open();
    await seedDemoData(db);
    await seedDemoData(db);
    const games = await db.selectFrom("games").select("slug").orderBy("sort_order").execute();
    expect(games.map((game) => game.slug)).toEqual([
      "apex-legends",
      "valorant",
      "splatoon-3",
      "street-fighter-6",
      "monster-hunter-wilds",
      "pokemon-unite",
      "fortnite",
      "league-of-legends",
    ]);
  });

  it("enforces the constraints in the database itself", async () => {
    const { db } = await open();
    await expect(
      db.insertInto("games").values({ slug: "Not A Slug", name: "x", name_kana: "x" }).execute(),
    ).rejects.toThrow();
    await expect(
      db.insertInto("inquiries").values({ name: "", email: "a@b.c", category: "other", body: "x" }).execute(),
    ).rejects.toThrow();
    // A notification links inside the app only.
    const { id: userId } = await db.insertInto("users").values({ id: crypto.randomUUID(), display_name: "x" }).returning("id").executeTakeFirstOrThrow();
    const notification = (link: string | null) => db.insertInto("notifications").values({ user_id: userId, type: "test", title: "t", link }).execute();
    for (const link of ["/", "/chat/abc", null]) await expect(notification(link)).resolves.toBeDefined();
    for (const link of ["https://evil.example", "//evil.example", "/\\evil.example", "chat", ""]) await expect(notification(link), String(link)).rejects.toThrow();
  });

  it("reads bigint counts and timestamps the same way", async () => {
    const { db } = await open({ seed: true });
    const { n } = await db.selectFrom("games").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(n).toBe(8);
    const { created_at } = await db.selectFrom("games").select("created_at").executeTakeFirstOrThrow();
    expect(created_at).toBeInstanceOf(Date);
  });

  it("keeps concurrent transactions apart", async () => {
    const { db } = await open();
    // Each transaction reads a counter, waits, and writes it back plus one. Run concurrently on a
    // shared connection without isolation, the interleaved statements would lose updates.
    await sql`create table counter (id int primary key, n int not null)`.execute(db);
    await sql`insert into counter values (1, 0)`.execute(db);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ n: number }>`select n from counter where id = 1 for update`.execute(trx);
          await new Promise((resolve) => setTimeout(resolve, 2));
          await sql`update counter set n = ${rows[0]!.n + 1} where id = 1`.execute(trx);
        }),
      ),
    );
    const { rows } = await sql<{ n: number }>`select n from counter where id = 1`.execute(db);
    expect(rows[0]!.n).toBe(20);
  });

  it("rolls a failed transaction back without touching other work", async () => {
    const { db } = await open();
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto("games").values({ slug: "rolled-back", name: "x", name_kana: "x" }).execute();
      throw new Error("boom");
    });
    const other = db.insertInto("games").values({ slug: "kept", name: "y", name_kana: "y" }).execute();
    await expect(failing).rejects.toThrow("boom");
    await other;
    const slugs = (await db.selectFrom("games").select("slug").execute()).map((game) => game.slug);
    expect(slugs).toContain("kept");
    expect(slugs).not.toContain("rolled-back");
  });

  it("migrates down to nothing and up again", async () => {
    const { db } = await open();
    const names = Object.keys(migrations).reverse();
    for (const name of names) await migrations[name]!.down!(db);
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.tables
      where table_schema = current_schema() and table_name in ('games', 'inquiries', 'users', 'auth_users', 'subscriptions', 'chat_rooms', 'chat_messages', 'user_blocks', 'notifications')`.execute(db);
    expect(rows[0]!.n).toBe(0);
    for (const name of [...names].reverse()) await migrations[name]!.up(db);
  });

  it("0024 starts the chat digest's marks from the digests already sent", async () => {
    const { db } = await open();
    await migrations["0024_chat_digest_marks"]!.down!(db);
    const [reader, friend] = [crypto.randomUUID(), crypto.randomUUID()];
    await db.insertInto("users").values([{ id: reader, display_name: "読む人" }, { id: friend, display_name: "ともだち" }]).execute();
    const [digested, untouched] = [crypto.randomUUID(), crypto.randomUUID()];
    await db.insertInto("chat_rooms").values([{ id: digested, type: "GROUP", name: "a" }, { id: untouched, type: "GROUP", name: "b" }]).execute();
    await sql`insert into chat_participants (room_id, user_id) values (${digested}, ${reader}), (${digested}, ${friend}), (${untouched}, ${reader})`.execute(db);
    const at = (iso: string) => new Date(iso);
    await db
      .insertInto("mail_outbox")
      .values([
        { kind: "chat_digest", to_address: "r@example.com", user_id: reader, topic: digested, data: JSON.stringify({ lastMessageId: 7 }), created_at: at("2026-11-26T01:00:00Z") },
        { kind: "chat_digest", to_address: "r@example.com", user_id: reader, topic: digested, data: JSON.stringify({ lastMessageId: 12 }), created_at: at("2026-11-26T03:00:00Z") },
        { kind: "recovery", to_address: "r@example.com", user_id: reader, topic: untouched, data: JSON.stringify({ lastMessageId: 99 }) },
      ])
      .execute();
    await migrations["0024_chat_digest_marks"]!.up(db);
    const marks = await db.selectFrom("chat_participants").select(["room_id", "user_id", "digested_message_id", "digested_at"]).execute();
    const markOf = (room: string, user: string) => marks.find((mark) => mark.room_id === room && mark.user_id === user);
    expect(markOf(digested, reader)).toMatchObject({ digested_message_id: expect.anything(), digested_at: at("2026-11-26T03:00:00Z") });
    expect(Number(markOf(digested, reader)!.digested_message_id)).toBe(12);
    expect(markOf(digested, friend)).toMatchObject({ digested_at: null });
    expect(Number(markOf(digested, friend)!.digested_message_id)).toBe(0);
    expect(markOf(untouched, reader)).toMatchObject({ digested_at: null });
    expect(Number(markOf(untouched, reader)!.digested_message_id)).toBe(0);
  });

  it("0026 moves the last hour's signs of life into user_presence, and back down", async () => {
    const { db } = await open();
    await migrations["0026_user_presence"]!.down!(db);
    const [recent, earlier, never] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const seen = new Date(Date.now() - 60_000);
    await sql`insert into users (id, display_name, last_seen_at) values
      (${recent}, 'さっき', ${seen}), (${earlier}, '二時間前', now() - interval '2 hours'), (${never}, 'まだ', null)`.execute(db);
    await migrations["0026_user_presence"]!.up(db);
    const presence = await db.selectFrom("user_presence").select(["user_id", "last_seen_at"]).where("user_id", "in", [recent, earlier, never]).execute();
    expect(presence).toEqual([{ user_id: recent, last_seen_at: seen }]);

    await migrations["0026_user_presence"]!.down!(db);
    const { rows } = await sql<{ id: string; last_seen_at: Date | null }>`select id, last_seen_at from users where id in (${recent}, ${earlier}) order by last_seen_at nulls first`.execute(db);
    expect(rows).toEqual([
      { id: earlier, last_seen_at: null },
      { id: recent, last_seen_at: seen },
    ]);
    await migrations["0026_user_presence"]!.up(db);
  });

  it("reports the queries at least DATABASE_SLOW_QUERY_MS long with their SQL, and their parameters only when asked", async () => {
    const { url } = await open({ migrate: false });
    const reported: Array<{ ms: number; sql: string; parameters: readonly unknown[] }> = [];
    for (const parameters of [true, false]) {
      const handle = await openDatabase({ url, slowQuery: { ms: 200, parameters, report: (query) => reported.push(query) } });
      try {
        await sql`select pg_sleep(${0.3})`.execute(handle.db);
        await sql`select ${1}::int as fast`.execute(handle.db);
      } finally {
        await handle.close();
      }
    }
    expect(reported.map((query) => query.sql)).toEqual(["select pg_sleep($1)", "select pg_sleep($1)"]);
    expect(reported[0]!.ms).toBeGreaterThanOrEqual(200);
    expect(reported[0]!.parameters).toEqual([0.3]);
    expect(reported[1]!.parameters).toEqual([]);
  });
});

/** Every column, index, constraint and trigger of the public schema, one line each, sorted. */
async function schemaOf(db: TestDatabase["db"]): Promise<string[]> {
  const { rows } = await sql<{ line: string }>`
    select concat_ws(' ', 'column', table_name, column_name, data_type, is_nullable, column_default) as line
      from information_schema.columns where table_schema = 'public'
    union all select concat_ws(' ', 'index', tablename, indexdef) from pg_indexes where schemaname = 'public'
    union all select concat_ws(' ', 'constraint', conrelid::regclass::text, conname, pg_get_constraintdef(oid))
      from pg_constraint where connamespace = 'public'::regnamespace
    union all select concat_ws(' ', 'trigger', tgrelid::regclass::text, tgname) from pg_trigger
      where not tgisinternal and tgrelid in (select oid from pg_class where relnamespace = 'public'::regnamespace)
    union all select concat_ws(' ', 'migration', name) from kysely_migration
    order by 1`.execute(db);
  return rows.map((row) => row.line);
}
