import type { Database } from "~/infra/db/tables";
import type { InquiryInput } from "~/lib/validation/inquiry";

/**
 * Stores a message sent through /inquiry, with the sender's account when they were signed in (the desk links it; an
 * account without a profile yet, or one leaving, is not linked).
 */
export async function createInquiry({ db, inquiry, userId = null }: { db: Database; inquiry: InquiryInput; userId?: string | null }) {
  return db
    .insertInto("inquiries")
    .values({ name: inquiry.name, email: inquiry.email, category: inquiry.category, body: inquiry.body, user_id: userId === null ? null : db.selectFrom("users").select("id").where("id", "=", userId).where("deleted_at", "is", null) })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
}
