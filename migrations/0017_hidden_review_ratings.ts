import { sql, type Kysely } from "kysely";

/**
 * A review the operators hide (docs/product.md#trust-and-safety) stops counting in its reviewee's rating, and counts again when restored:
 * `users.rating_count`/`rating_sum` and the copy on their listings (migration 0012) move with `reviews.hidden_at`,
 * by a trigger, so every path that hides or restores a review keeps them right.
 */
export async function up(db: Kysely<any>) {
  await sql`
    create function gm_review_hidden_rating() returns trigger language plpgsql as $$
    declare
      sign integer := case when new.hidden_at is null then 1 else -1 end;
    begin
      update users set rating_count = rating_count + sign, rating_sum = rating_sum + sign * new.rating where id = new.reviewee_id;
      update listings l set seller_rating_count = u.rating_count,
          seller_rating = case when u.rating_count > 0 then round(u.rating_sum::numeric / u.rating_count, 2) end
        from users u where u.id = new.reviewee_id and l.seller_id = u.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reviews_hidden_rating after update of hidden_at on reviews
    for each row when ((old.hidden_at is null) <> (new.hidden_at is null)) execute function gm_review_hidden_rating()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger reviews_hidden_rating on reviews`.execute(db);
  await sql`drop function gm_review_hidden_rating()`.execute(db);
}
