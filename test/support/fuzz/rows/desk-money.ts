import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { formBody, formExample, get, NUL, post, queryString, segment, text, type Row } from "../generators";

/**
 * The operators' desk's payouts and inquiries (ADR 072), sent with an admin's cookies (`as: "cookie"`, a world made
 * with `desk: true`): the payouts page's reveal and decisions, the inquiries queue's filter, an inquiry's reply,
 * close and reopen. Signed out, or as a member, each is the 404 of an unknown path.
 */
const key = fc.constant(null).map(() => randomUUID());

export const deskMoneyRows: Row[] = [
  { route: "routes/_default.admin.payouts", method: "GET", as: "cookie", request: () => get("/admin/payouts", queryString({ x: fc.constant("1") })) },
  {
    route: "routes/_default.admin.payouts",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      post(
        "/admin/payouts",
        formBody({ intent: fc.constantFrom("reveal", "pay", "reject"), payoutId: fc.constantFrom(ctx.deskPayoutId, randomUUID(), "abc"), reason: text("振込番号 0001") }),
      ),
    examples: (ctx) => [
      formExample("/admin/payouts", { intent: "reject", payoutId: ctx.deskPayoutId, reason: `理${NUL}由` }),
      formExample("/admin/payouts", { intent: "reveal", payoutId: `${ctx.deskPayoutId}${NUL}` }),
      formExample("/admin/payouts", { intent: "pay", payoutId: ctx.deskPayoutId, reason: "あ".repeat(1001) }),
    ],
  },
  {
    route: "routes/_default.admin.inquiries._index",
    method: "GET",
    as: "cookie",
    request: () => get("/admin/inquiries", queryString({ status: fc.constantFrom("", "open", "answered", "closed", "bogus"), page: fc.constantFrom("0", "1", "-1", "1e999", "99999999") })),
  },
  { route: "routes/_default.admin.inquiries._index", method: "POST", as: "cookie", request: () => post("/admin/inquiries?index", formBody({ intent: fc.constantFrom("reply", "close"), body: text("返信") })) },
  {
    route: "routes/_default.admin.inquiries.$id",
    method: "GET",
    as: "cookie",
    request: (ctx) => segment(String(ctx.deskInquiryId)).chain((id) => get(`/admin/inquiries/${id}`)),
  },
  {
    route: "routes/_default.admin.inquiries.$id",
    method: "POST",
    as: "cookie",
    request: (ctx) =>
      fc
        .tuple(segment(String(ctx.deskInquiryId)), formBody({ intent: fc.constantFrom("reply", "close", "reopen"), body: text("ご連絡ありがとうございます。"), key }))
        .chain(([id, sent]) => post(`/admin/inquiries/${id}`, fc.constant(sent))),
    examples: (ctx) => [
      formExample(`/admin/inquiries/${ctx.deskInquiryId}`, { intent: "reply", body: `返${NUL}信`, key: randomUUID() }),
      formExample(`/admin/inquiries/${ctx.deskInquiryId}`, { intent: "reply", body: "あ".repeat(2001), key: randomUUID() }),
      formExample("/admin/inquiries/99999999999", { intent: "close" }),
    ],
  },
];
