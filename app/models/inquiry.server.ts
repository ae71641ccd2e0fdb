import type { Database } from "~/infra/db/tables";
import type { InquiryInput } from "~/lib/validation/inquiry";

/** Stores a message sent through /inquiry. */
export async function createInquiry({ db, inquiry }: { db: Database; inquiry: InquiryInput }) {
  return db
    .insertInto("inquiries")
    .values({ name: inquiry.name, email: inquiry.email, category: inquiry.category, body: inquiry.body })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
}
