import { sql, type Kysely } from "kysely";

/**
 * A gallery's posts from an index of their own (bench:scale). `/u/{uid}/gallery` lists an author's posts
 * with an image; through posts_author_idx PostgreSQL read every post of the author to keep those with one (5,011
 * heap pages and 48–307 ms for a busy author with no image at SCALE=10). Only posts with an image are in this one.
 */
export async function up(db: Kysely<any>) {
  await sql`create index posts_author_images_idx on posts (author_id, created_at desc, id desc) where upload_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index posts_author_images_idx`.execute(db);
}
