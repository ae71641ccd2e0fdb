// The data `npm run bench:scale` measures against, generated in SQL as fast as this machine allows: in two
// lanes of independent tables at once (a connection and a core each), with triggers and foreign-key checks off
// (`session_replication_role = replica`, on the loading connections), every secondary index of the big tables dropped
// first and built again after the load (two at a time), and what triggers would have kept (listing search text,
// rating totals, member counts, last activity, wallets) written set-based once. Row
// counts scale with SCALE (1 = the sizes below; 10 = ten times, the issue's target); the heavy users are full size
// from SCALE=1 and scaled down below it.
import { sql, type RawBuilder } from "kysely";
import type { Database } from "../../app/infra/db";
import {
  bookingId,
  bookingIdOf,
  CHAT_WORDS,
  listingId,
  MINUTES,
  NAME_FIRST,
  NAME_SECOND,
  pick,
  POST_WORDS,
  PRICES,
  roomId,
  TITLE_FIRST,
  TITLE_SECOND,
  TITLE_THIRD,
  userEmail,
  userId,
  userIdOf,
} from "./bench-data";

interface ScaleSizes {
  users: number;
  sellers: number;
  listings: number;
  bookings: number;
  posts: number;
  rooms: number;
  messages: number;
  notifications: number;
  subscriptions: number;
  communityMembers: number;
  footprints: number;
  /** The heavy users' own sizes. */
  heavy: {
    sellerBookings: number;
    sellerSubscribers: number;
    roomMessages: number;
    notifications: number;
    rooms: number;
    coinHistory: number;
  };
}

export function sizesFor(scale: number): ScaleSizes {
  const count = (n: number) => Math.max(20, Math.round(n * scale));
  const heavy = (n: number) => Math.max(10, Math.round(n * Math.min(1, scale)));
  const users = count(100_000);
  return {
    users,
    sellers: Math.round(users * 0.4),
    listings: count(200_000),
    bookings: count(150_000),
    posts: count(1_000_000),
    rooms: count(200_000),
    messages: count(2_000_000),
    notifications: count(2_000_000),
    subscriptions: count(250_000),
    communityMembers: count(250_000),
    footprints: count(1_000_000),
    heavy: {
      sellerBookings: heavy(20_000),
      sellerSubscribers: Math.min(heavy(50_000), users - 10),
      roomMessages: heavy(100_000),
      notifications: heavy(10_000),
      rooms: Math.min(heavy(1_000), users - 10),
      coinHistory: heavy(5_000),
    },
  };
}

/** Who the heavy users are: user 1 sells a lot, user 2 chats a lot, user 3 buys from user 1. */
export const HEAVY = { seller: 1, chatter: 2, buyer: 3 } as const;
/** The room of user 2 with the most messages (a group of ten). */
export const HEAVY_ROOM = 1;

const BIG_TABLES = [
  "users",
  "listings",
  "bookings",
  "reviews",
  "posts",
  "chat_rooms",
  "chat_participants",
  "chat_messages",
  "notifications",
  "subscriptions",
  "community_members",
  "footprints",
  "coin_wallets",
  "coin_transactions",
];

type Step = (label: string, statement: RawBuilder<unknown>) => Promise<void>;

export interface StepTiming {
  label: string;
  rows: number;
  seconds: number;
}

/** Booking number `i` (SQL) of `listing` by `buyer`, completed at `when` (SQL), in the order of `bookingColumns`. */
const completed = (i: string, listing: RawBuilder<unknown>, buyer: RawBuilder<unknown>, when: string) => sql`
  select ${bookingId(i)}, l.id, ${buyer}, l.seller_id, l.title, l.price_per_unit, l.minutes_per_unit, 1, l.price_per_unit, l.minutes_per_unit,
    ${sql.raw(when)}, 'completed', ${sql.raw(when)} - interval '1 hour', ${sql.raw(when)} - interval '2 hours', ${sql.raw(when)},
    ${sql.raw(when)} + l.minutes_per_unit * interval '1 minute', ${sql.raw(when)} + l.minutes_per_unit * interval '1 minute', 'buyer',
    'bench-' || ${sql.raw(i)}, ${sql.raw(when)} - interval '1 day', ${sql.raw(when)}
  from listings l where l.id = ${listing}`;
const bookingColumns = sql.raw(`id, listing_id, buyer_id, seller_id, title, price_per_unit, minutes_per_unit, units, total_price, total_minutes,
    desired_start_at, status, accept_deadline_at, accepted_at, started_at, ends_at, completed_at, completed_by, idempotency_key, created_at, updated_at`);

/**
 * Completed bookings of the heavy seller's listing that nobody reviewed yet, one for each of `buyers` (user numbers),
 * numbered from `first` on: what the bench's review writes review. Answers their ids by buyer.
 */
export async function unreviewedBookings(db: Database, buyers: number[], first: number) {
  await sql`insert into bookings (${bookingColumns})
    select b.* from unnest(${sql.raw(`array[${buyers.join(", ")}]::int[]`)}) with ordinality as w(buyer, n),
      lateral (${completed(`${first} + w.n`, listingId("1"), userId("w.buyer"), "now() - interval '2 days'")}) as b`.execute(db);
  return new Map(buyers.map((buyer, n) => [userIdOf(buyer), bookingIdOf(first + 1 + n)]));
}

/**
 * The generated 1 % online again (users numbered 1–3 and every hundredth, as generated, announced and seen now), for a
 * reused database: any server that ran on it without the bench's heartbeat (a probe, a test) announced them offline
 * two minutes later, and explore's online pages would then be measured over 37 sellers instead of 10,000. Flipping
 * the flag moves their listings back into the online set through migration 0020's trigger.
 */
export async function restoreOnline(db: Database, sizes: ScaleSizes) {
  const online = sql`select ${userId("i")} from generate_series(1, ${sizes.users}) as i where i % 100 = 0 or i <= 3`;
  const { numAffectedRows } = await sql`update users set online_announced = true where not online_announced and id in (${online})`.execute(db);
  await sql`insert into user_presence (user_id, last_seen_at) select id, now() from users where online_announced order by id
    on conflict (user_id) do update set last_seen_at = excluded.last_seen_at`.execute(db);
  return Number(numAffectedRows ?? 0n);
}

/** `amount` coins more for each of `users` (user numbers), as a purchase in their ledger: the bench's paid writes. */
export async function topUp(db: Database, users: number[], amount: number) {
  await sql`with topped as (
      update coin_wallets w set purchased = purchased + ${amount} where w.user_id = any(${users.map(userIdOf)}::uuid[])
      returning w.user_id, w.purchased, w.earned
    )
    insert into coin_transactions (user_id, kind, amount, purchased_after, earned_after, reference)
    select user_id, 'purchase', ${amount}, purchased, earned, 'bench-top-up-' || user_id || '-' || ${Date.now()} from topped`.execute(db);
}

/**
 * Generates everything into `db` (migrated, with the games, communities and events of the demo seed, and no users).
 * Answers each step's rows and time, the index builds per table included.
 */
export async function generateScaleData(db: Database, scale: number, log: (line: string) => void = () => {}): Promise<StepTiming[]> {
  const sizes = sizesFor(scale);
  const { users: U, sellers: S, listings: L, bookings: B, rooms: R, heavy: H } = sizes;
  const timings: StepTiming[] = [];
  // The secondary indexes of the big tables, dropped while they fill (constraints' own indexes stay: they enforce;
  // but see the random keys below).
  const { rows: indexes } = await sql<{
    table: string;
    name: string;
    definition: string;
  }>`
    select tablename as table, indexname as name, indexdef as definition from pg_indexes
    where schemaname = 'public' and tablename = any(${BIG_TABLES}::text[])
      and indexname not in (select conname from pg_constraint)
    order by tablename, indexname`.execute(db);

  // One connection per lane, each with the loading settings; the two lanes fill independent tables at once (a core each).
  const lane = (steps: (step: Step) => Promise<void>, { triggers = false } = {}) =>
    db.connection().execute(async (conn) => {
      if (!triggers) await sql`set session_replication_role = replica`.execute(conn);
      await sql`set synchronous_commit = off`.execute(conn);
      await sql`set maintenance_work_mem = '1GB'`.execute(conn);
      // Hash joins and aggregates of millions of rows in memory rather than in batches on disk.
      await sql`set work_mem = '256MB'`.execute(conn);
      await steps(async (label, statement) => {
        const started = performance.now();
        const result = await statement.execute(conn);
        const timing = { label, rows: Number(result.numAffectedRows ?? 0n), seconds: (performance.now() - started) / 1000 };
        timings.push(timing);
        log(`  ${label}: ${timing.rows.toLocaleString("en")} rows, ${timing.seconds.toFixed(1)} s`);
      });
    });
  const timed = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    const seconds = (performance.now() - started) / 1000;
    timings.push({ label, rows: 0, seconds });
    log(`  ${label}: ${seconds.toFixed(1)} s`);
  };

  // Primary keys of random ids (gen_random_uuid(): posts, notifications, reviews) that no foreign key leans on,
  // dropped too and added again after the load: each row put its id in a random leaf of an index far larger than
  // the buffers, 20M times for the notifications (549 s at SCALE=10); built afterwards it is one sort.
  const { rows: randomKeys } = await sql<{ table: string; name: string; definition: string }>`
    select c.conrelid::regclass::text as table, c.conname as name,
      format('alter table %I add constraint %I %s', c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)) as definition
    from pg_constraint c
    join pg_attrdef d on d.adrelid = c.conrelid and d.adnum = c.conkey[1]
    where c.contype = 'p' and cardinality(c.conkey) = 1 and pg_get_expr(d.adbin, d.adrelid) = 'gen_random_uuid()'
      and c.conrelid::regclass::text = any(${BIG_TABLES}::text[])
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = c.conrelid)
    order by 1`.execute(db);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
  for (const key of randomKeys) await sql`alter table ${sql.table(key.table)} drop constraint ${sql.id(key.name)}`.execute(db);
  indexes.push(...randomKeys);
  await lane(async (step) => {
    // ~1 % online now (presence's flag and last sign of life); everyone else not seen within the hour that
    // `user_presence` keeps. Each with their account's mail address, so that the mail jobs (the chat digest) have
    // someone to write to.
    await step(
      "users",
      sql`insert into users (id, email, display_name, created_at, online_announced)
        select ${userId("i")}, ${userEmail("i")},
          ${pick(NAME_FIRST, "abs(hashint4(i)::bigint)")} || ${pick(
        NAME_SECOND,
        "abs(hashint4(i + 1000003)::bigint)"
      )} || case when i % 3 = 0 then '' else (i % 1000)::text end,
          now() - (i % 700) * interval '1 day',
          i % 100 = 0 or i <= 3
        from generate_series(1, ${U}) as i`
    );
    await step(
      "user_presence",
      sql`insert into user_presence (user_id, last_seen_at) select id, now() from users where online_announced`
    );
  });
  await Promise.all([
    lane(async (step) => {
      // The listing trigger's work, set-based: search text from title, seller and game (migration 0012's functions),
      // computed per part and joined, as the trigger's whole would be: the parts are apart by a space, which the
      // normalisation keeps and which no two-character piece holds. So each title (1,152 of them), seller and game
      // is normalised once instead of once per listing (2M at SCALE=10: 200 s of one core), in three small tables
      // keyed by number and joined by their keys (one table of mixed parts misled the planner into scanning it per
      // listing). A sample is checked against the trigger's own functions below. 90 % active; listing 1, the heavy
      // seller's listing whose page the bench opens, always (a paused one is a 404 to others).
      const parts = (name: string, rows: RawBuilder<unknown>) =>
        step(`listings' ${name} normalised`, sql`create temporary table ${sql.id(`${name}_parts`)} as ${rows}`).then(() =>
          step(`listings' ${name} keyed`, sql`alter table ${sql.id(`${name}_parts`)} add primary key (n)`)
        );
      const normalised = (text: string) => sql.raw(`gm_search_text(${text}) as text, gm_bigrams(gm_search_text(${text})) as grams`);
      await parts(
        "title",
        sql`select a * 1000 + b * 10 + c as n, t.title, ${normalised("t.title")}
          from generate_series(0, ${TITLE_FIRST.length - 1}) as a, generate_series(0, ${TITLE_SECOND.length - 1}) as b,
            generate_series(0, ${TITLE_THIRD.length - 1}) as c,
            lateral (select ${pick(TITLE_FIRST, "a")} || ' ' || ${pick(TITLE_SECOND, "b")} || ${pick(TITLE_THIRD, "c")} as title) as t`
      );
      await parts("seller", sql`select n, ${normalised("u.display_name")} from generate_series(1, ${S}) as n join users u on u.id = ${userId("n")}`);
      await parts("game", sql`select row_number() over (order by sort_order)::int as n, id, ${normalised("concat_ws(' ', name, name_kana)")} from games`);
      await step("listings' parts analysed", sql`analyze title_parts, seller_parts, game_parts`);
      await step(
        "listings",
        sql`insert into listings (id, seller_id, game_id, title, price_per_unit, minutes_per_unit, max_units, status, created_at, updated_at, search_text, search_grams)
          select ${listingId("x.i")}, ${userId("x.seller")}, g.id, t.title, x.price, x.minutes, 1 + x.i % 8, x.status, x.at, x.at,
            concat_ws(' ', nullif(t.text, ''), nullif(s.text, ''), nullif(g.text, '')),
            array(select distinct piece from unnest(t.grams || s.grams || g.grams) as piece order by piece)
          from (
            select i, 1 + (i - 1) % ${S} as seller, 1 + floor(power(random(), 1.6) * (select count(*) from games))::int as game,
              floor(random() * ${TITLE_FIRST.length})::int * 1000 + floor(random() * ${TITLE_SECOND.length})::int * 10
                + floor(random() * ${TITLE_THIRD.length})::int as title,
              ${pick(PRICES, "floor(random() * 1000)::int")} as price, ${pick(MINUTES, "floor(random() * 1000)::int")} as minutes,
              case when i = 1 or random() < 0.9 then 'active' when random() < 0.5 then 'paused' else 'archived' end as status,
              now() - random() * interval '180 days' as at
            from generate_series(1, ${L}) as i
          ) as x
          join title_parts t on t.n = x.title
          join seller_parts s on s.n = x.seller
          join game_parts g on g.n = x.game`
      );
      // What the trigger would have written, on a sample: the parts' shortcut must not change a listing's search.
      await step(
        "listing search text checked on a sample",
        sql`do $$ begin
          if exists (
            select 1 from listings l join users u on u.id = l.seller_id join games g on g.id = l.game_id
            where l.id in (select ${listingId(`1 + (k::bigint * 7919) % ${L}`)} from generate_series(1, 2000) as k)
              and (l.search_text is distinct from gm_search_text(concat_ws(' ', l.title, u.display_name, g.name, g.name_kana))
                or l.search_grams is distinct from gm_bigrams(l.search_text))
          ) then raise exception 'bench:scale: a listing''s search text differs from what the trigger writes';
          end if;
        end $$`
      );
      // Completed bookings on four sellers in five; buyers are the users who sell nothing. Then the heavy seller's own:
      // user 1's first listing, bought by everyone in turn, user 3 most of all; a few still pending with the deadline ahead.
      await step(
        "bookings",
        sql`insert into bookings (${bookingColumns})
          select b.* from generate_series(1, ${B}) as j,
            lateral (select 1 + (j::bigint * 7919) % ${L} as li, now() - (1 + (j * 37) % 170) * interval '1 day' - (j % 1440) * interval '1 minute' as t) as s,
            lateral (${completed("j", listingId("s.li"), userId(`${S + 1} + j % ${U - S}`), "s.t")}) as b
          where abs(hashint4(((s.li - 1) % ${S})::int)::bigint) % 5 <> 0 and (s.li - 1) % ${S} <> 0`
      );
      await step(
        "bookings of the heavy seller",
        sql`insert into bookings (${bookingColumns})
          select b.* from generate_series(${B + 1}::int, ${B + H.sellerBookings}::int) as j,
            lateral (select now() - (1 + j % 700) * interval '1 day' - (j % 1440) * interval '1 minute' as t) as s,
            lateral (${completed(
              "j",
              listingId("1"),
              sql`case when j % 4 = 0 then ${userId(String(HEAVY.buyer))} else ${userId(`${S + 1} + j % ${U - S}`)} end`,
              "s.t"
            )}) as b`
      );
      await step(
        "pending bookings (deadline ahead)",
        sql`insert into bookings (id, listing_id, buyer_id, seller_id, title, price_per_unit, minutes_per_unit, units, total_price, total_minutes,
            desired_start_at, status, accept_deadline_at, idempotency_key, created_at, updated_at)
          select ${bookingId("j")}, l.id, ${userId(`${S + 1} + j % ${U - S}`)}, l.seller_id, l.title, l.price_per_unit, l.minutes_per_unit, 1,
            l.price_per_unit, l.minutes_per_unit, now() + interval '3 days', 'pending', now() + interval '1 day', 'bench-' || j, now(), now()
          from generate_series(${B + H.sellerBookings + 1}::int, ${B + H.sellerBookings + Math.max(10, Math.round(B / 100))}::int) as j
          join listings l on l.id = ${listingId(`1 + (j * 13) % ${L}`)}
          where l.seller_id <> ${userId(`${S + 1} + j % ${U - S}`)}`
      );
      // Every completed booking reviewed by its buyer; a seller's stars lean on a per-seller base.
      await step(
        "reviews",
        sql`insert into reviews (booking_id, reviewer_id, reviewee_id, rating, comment, created_at)
          select b.id, b.buyer_id, b.seller_id,
            greatest(1, least(5, 3 + (('x' || substr(b.seller_id::text, 25))::bit(48)::bigint % 3)::int
              + case when random() < 0.15 then -2 when random() < 0.3 then -1 when random() < 0.3 then 1 else 0 end)),
            'ありがとうございました', b.completed_at + interval '1 hour'
          from bookings b where b.status = 'completed'`
      );
      await step(
        "notifications",
        sql`insert into notifications (user_id, type, title, body, link, read_at, created_at)
          select ${userId(`case when i <= ${H.notifications} then ${HEAVY.chatter} else 1 + (i::bigint * 7919) % ${U} end`)}, 'booking_completed',
            'チケットが完了しました', 'レビューを書きましょう', '/tickets', case when i % 10 = 0 then null else now() end,
            now() - (i % 100000) * interval '5 minutes'
          from generate_series(1, ${sizes.notifications + H.notifications}) as i`
      );
      await step(
        "footprints",
        sql`insert into footprints (visitor_id, visited_id, visited_at)
          select ${userId(`1 + i % ${U}`)}, ${userId(
          `1 + (i % ${U} + 1 + i / ${U}) % ${U}`
        )}, now() - (i % 90) * interval '1 day' - (i % 1440) * interval '1 minute'
          from generate_series(0, ${sizes.footprints - 1}) as i
          on conflict do nothing`
      );
      // Coin history: a purchase for every user, and years of monthly purchases for the heavy users; the running
      // balances by window, the wallets from the last row.
      await step(
        "coin transactions",
        sql`insert into coin_transactions (user_id, kind, amount, purchased_after, earned_after, reference, created_at)
          select user_id, 'purchase', amount, sum(amount) over (partition by user_id order by n), 0, 'bench-order-' || user_id || '-' || n, at
          from (
            select ${userId(
              "i"
            )} as user_id, 1 as n, 1000 + (i % 10) * 500 as amount, now() - (i % 600) * interval '1 day' as at from generate_series(1, ${U}) as i
            union all
            select ${userId("h")}, 1 + n, 500, now() - n * interval '4 hours' from generate_series(1, 3) as h, generate_series(1, ${H.coinHistory}) as n
          ) as t`
      );
      await step(
        "coin wallets",
        sql`insert into coin_wallets (user_id, purchased, earned)
          select user_id, sum(amount), 0 from coin_transactions group by user_id`
      );
    }),
    lane(async (step) => {
      await step(
        "posts",
        sql`insert into posts (author_id, content, is_public, community_id, created_at)
          select ${userId(`case when i % 2000 = 0 then 1 else 1 + floor(random() * ${U})::int end`)},
            ${pick(POST_WORDS, "floor(random() * 1000)::int")} || ' ' || ${pick(POST_WORDS, "floor(random() * 1000)::int")} || ' #' || i,
            random() >= 0.1,
            case when random() < 0.2 and c.n > 0 then c.ids[1 + floor(random() * c.n)::int] end,
            date_trunc('milliseconds', now() - random() * interval '365 days')
          from generate_series(1, ${sizes.posts}) as i, (select array_agg(id) as ids, count(*)::int as n from communities) as c`
      );
      // Rooms: the heavy room (user 2 and nine others), user 2's thousand direct rooms, then direct rooms of pairs
      // (k, k + d). Rooms are written after their messages, with their last activity and read marks from them, rather
      // than updated afterwards (2M rooms and 4M participants rewritten: 100 s). `pair(i)`: room i's two people as
      // user numbers `a` and `b`, a lateral subquery.
      const pair = (i: string) =>
        sql.raw(`lateral (select case when ${i} <= ${1 + H.rooms} then ${HEAVY.chatter} else 1 + (${i} - 1) % ${U} end as a,
          case when ${i} <= ${1 + H.rooms} then 3 + ${i} else 1 + ((${i} - 1) % ${U} + 1 + (${i} - 1) / ${U} + 3) % ${U} end as b) as p`);
      // A pair that comes again (one of the chatter's rooms among the others) makes no second room.
      await step(
        "chat rooms not made (a pair again)",
        sql`create temporary table rooms_not_made as
          select i from (
            select i, row_number() over (partition by least(p.a, p.b), greatest(p.a, p.b) order by i) as nth
            from generate_series(1, ${R}) as i, ${pair("i")} where i <> ${HEAVY_ROOM}
          ) as pairs where nth > 1`
      );
      // Messages: the heavy room's first, then the rest spread over every room, each from one of its people (the
      // first or second by id in turn, the heavy room's first two), found from the room's number rather than looked
      // up per message (20M lookups: 200 s of a core).
      await step(
        "chat messages",
        sql`insert into chat_messages (room_id, sender_id, content, created_at)
          select ${roomId("m.r")}, ${userId(`case when m.r = ${HEAVY_ROOM} then ${HEAVY.chatter} + m.j % 2
              when m.j % 2 = 0 then least(p.a, p.b) else greatest(p.a, p.b) end`)},
            ${pick(CHAT_WORDS, "m.j")}, now() - (${sizes.messages + H.roomMessages} - m.j) * interval '2 seconds'
          from (
            select j, case when j <= ${H.roomMessages} then ${HEAVY_ROOM} else 2 + (j::bigint * 7919) % ${R - 1} end as r
            from generate_series(1, ${sizes.messages + H.roomMessages}) as j
          ) as m, ${pair("m.r")}
          where m.r not in (select i from rooms_not_made)`
      );
      // Each room's newest message, found once for both below (a temporary table: gone with the connection).
      await step(
        "chat rooms' newest messages",
        sql`create temporary table newest_messages as select room_id, max(id) as id, max(created_at) as at from chat_messages group by room_id`
      );
      await step(
        "chat rooms",
        sql`insert into chat_rooms (id, type, name, direct_key, created_at, last_activity_at, last_message_id, digest_settled_id)
          select ${roomId("i")}, case when i = ${HEAVY_ROOM} then 'GROUP' else 'DIRECT' end, case when i = ${HEAVY_ROOM} then '常連グループ' end,
            case when i = ${HEAVY_ROOM} then null
              else least(who.a::text collate "C", who.b::text collate "C") || ':' || greatest(who.a::text collate "C", who.b::text collate "C") end,
            who.created_at, coalesce(last.at, who.created_at), coalesce(last.id, 0),
            case when last.at < now() - interval '1 hour' then last.id else 0 end
          from generate_series(1, ${R}) as i
          cross join ${pair("i")}
          cross join lateral (select ${userId("p.a")} as a, ${userId("p.b")} as b, now() - (1 + i % 400) * interval '1 day' as created_at) as who
          left join newest_messages as last on last.room_id = ${roomId("i")}
          where i not in (select i from rooms_not_made)`
      );
      // Everyone has read up to the newest message but a few. The chat digest has looked at every room quiet for an
      // hour and settled it, as a sweeper running all along would have (migration 0024's marks, set in the rooms
      // above too): what the last hour left unread is due, not a year's backlog of digests that a live product never has.
      await step(
        "chat participants",
        sql`insert into chat_participants (room_id, user_id, joined_at, last_read_message_id, digested_message_id)
          select r.id, who.user_id, r.created_at, coalesce(greatest(0, last.id - abs(hashtext(who.user_id::text)) % 3), 0),
            case when last.at < now() - interval '1 hour' then last.id else 0 end
          from chat_rooms r
          cross join lateral unnest(case when r.type = 'GROUP' then array(select ${userId("k")} from generate_series(${HEAVY.chatter}::int, ${
            HEAVY.chatter + 9
          }::int) as k)
            else array[split_part(r.direct_key, ':', 1)::uuid, split_part(r.direct_key, ':', 2)::uuid] end) as who(user_id)
          left join newest_messages as last on last.room_id = r.id
          where r.id::text like '00000000-0000-4000-b000-%'`
      );
      // The heavy seller's subscribers (users 4 on), then pairs (k, k + d) from the rest to sellers.
      await step(
        "subscriptions",
        sql`insert into subscriptions (subscriber_id, subscribee_id, expires_at, created_at, updated_at)
          select ${userId("3 + i")}, ${userId(String(HEAVY.seller))}, now() + (i % 30 - 5) * interval '1 day', now() - interval '20 days', now()
          from generate_series(1, ${H.sellerSubscribers}) as i
          union all
          select ${userId(`1 + (${S} + i) % ${U}`)}, ${userId(
          `2 + (i * 31) % (${S} - 1)`
        )}, now() + (i % 30 - 5) * interval '1 day', now() - interval '20 days', now()
          from generate_series(1, ${sizes.subscriptions}) as i
          where (${S} + i) % ${U} <> 1 + (i * 31) % (${S} - 1)
          on conflict do nothing`
      );
      await step(
        "community members",
        sql`insert into community_members (community_id, user_id, joined_at)
          select c.ids[1 + abs(hashint4(i)) % c.n], ${userId(`1 + i % ${U}`)}, now() - (i % 300) * interval '1 day'
          from generate_series(0, ${
            sizes.communityMembers - 1
          }) as i, (select array_agg(id order by id) as ids, count(*)::int as n from communities) as c
          on conflict do nothing`
      );
    }),
  ]);

  // What the triggers and the app keep, written once (with the triggers on again).
  await lane(
    async (step) => {
      await step(
        "users' rating totals",
        sql`update users u set rating_count = r.n, rating_sum = r.total
          from (select reviewee_id, count(*)::int as n, sum(rating)::int as total from reviews group by reviewee_id) r where r.reviewee_id = u.id`
      );
      // Neither of the two updates of listings below moves a status or a game, but migration 0027's statement trigger
      // would keep both whole tables of changed rows (1.6M) to find that out.
      await step("listings' game count trigger off", sql`alter table listings disable trigger listings_game_counts_update`);
      await step(
        "listings' seller ratings",
        sql`update listings l set seller_rating_count = u.rating_count, seller_rating = round(u.rating_sum::numeric / u.rating_count, 2)
          from users u where u.id = l.seller_id and u.rating_count > 0`
      );
      await step(
        "listings' online sellers",
        sql`update listings l set seller_online = true from users u where u.id = l.seller_id and u.online_announced`
      );
      await step("listings' game count trigger on", sql`alter table listings enable trigger listings_game_counts_update`);
      await step(
        "games' active listing counts",
        sql`update games g set active_listings_count = l.n from (select game_id, count(*)::int as n from listings where status = 'active' group by game_id) l where l.game_id = g.id`
      );
      await step(
        "communities' member counts",
        sql`update communities c set members_count = m.n from (select community_id, count(*)::int as n from community_members group by community_id) m where m.community_id = c.id`
      );
    },
    { triggers: true }
  );

  // The big tables' indexes built again, then vacuumed and analysed, the tables dealt out to the two lanes by size.
  const { rows: bySize } = await sql<{ table: string }>`
    select relname as table from pg_class where relkind = 'r' and relname in (${sql.join(BIG_TABLES)}) order by pg_total_relation_size(oid) desc`.execute(db);
  const dealt = [bySize.filter((_, i) => i % 2 === 0), bySize.filter((_, i) => i % 2 === 1)];
  await timed(`secondary indexes of ${new Set(indexes.map((index) => index.table)).size} tables, built after the load`, () =>
    Promise.all(
      dealt.map((tables) =>
        db.connection().execute(async (conn) => {
          await sql`set maintenance_work_mem = '1GB'`.execute(conn);
          for (const { table } of tables) for (const index of indexes.filter((index) => index.table === table)) await sql.raw(index.definition).execute(conn);
        })
      )
    )
  );
  await timed("VACUUM ANALYZE", async () => {
    await Promise.all(
      dealt.map((tables) =>
        db.connection().execute(async (conn) => {
          for (const { table } of tables) await sql`vacuum analyze ${sql.table(table)}`.execute(conn);
        })
      )
    );
    await sql`analyze`.execute(db);
  });
  return timings;
}
