import { sql, type Kysely } from "kysely";

/**
 * A community's newest members from an index in that order (bench:scale). The community page shows the
 * eight who joined last; with only the primary key (community_id, user_id), PostgreSQL read and sorted every member:
 * 254,000 rows and 235 ms for eight at 2.3M memberships.
 */
export async function up(db: Kysely<any>) {
  await sql`create index community_members_newest_idx on community_members (community_id, joined_at desc, user_id)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index community_members_newest_idx`.execute(db);
}
