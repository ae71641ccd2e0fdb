import fc from "fast-check";
import { formBody, formExample, get, NUL, post, queryString, type Row, segment, text } from "../generators";

/**
 * The operators' desk (ADR 071), as an admin at aal2 uses it (signed out, the same requests are the unknown path's
 * 404): its pages' GET forms and the decisions, on a member and a reported post of the desk rows' own.
 */
const decision = () =>
  formBody({
    intent: fc.constantFrom("hide", "dismiss", "restore", "suspend", "ban", "lift", "delete"),
    reason: text("規約違反のため"),
    days: fc.constantFrom("1", "7", "0", "3651", "1.5", "1e3", "-1"),
  });
const noPost = () => formBody({ reason: text("理由"), intent: fc.constantFrom("hide", "ban") });

export const deskRows: Row[] = [
  { route: "routes/_default.admin", method: "POST", as: "cookie", request: () => post("/admin", noPost()) },
  { route: "routes/_default.admin._index", method: "GET", as: "cookie", request: () => get("/admin", queryString({ index: fc.constant("") })) },
  { route: "routes/_default.admin._index", method: "POST", as: "cookie", request: () => post("/admin?index", noPost()) },
  { route: "routes/_default.admin_.two-step", method: "POST", as: "cookie", request: () => post("/admin/two-step", noPost()) },
  {
    route: "routes/_default.admin.reports._index",
    method: "GET",
    as: "cookie",
    request: () => get("/admin/reports", queryString({ reason: fc.constantFrom("", "spam", "off_platform_payment", "nope"), type: fc.constantFrom("", "post", "chat_message", "users") })),
  },
  { route: "routes/_default.admin.reports._index", method: "POST", as: "cookie", request: () => post("/admin/reports?index", noPost()) },
  {
    route: "routes/_default.admin.reports.$type.$id",
    method: "GET",
    as: "cookie",
    request: (ctx) =>
      fc
        .tuple(fc.constantFrom("post", "chat_message", "user", "listing", "review", "nope"), segment(ctx.deskPostId))
        .chain(([type, id]) => get(`/admin/reports/${type}/${id}`)),
  },
  {
    route: "routes/_default.admin.reports.$type.$id",
    method: "POST",
    as: "cookie",
    // A decision counts towards the operator's limit before the model judges it (a refused one too).
    refusalWrites: ["rate_limit_events"],
    request: (ctx) => segment(ctx.deskPostId).chain((id) => post(`/admin/reports/post/${id}`, decision())),
    examples: (ctx) => [
      formExample(`/admin/reports/post/${ctx.deskPostId}`, { intent: "dismiss", reason: `理${NUL}由` }),
      formExample(`/admin/reports/post/${ctx.deskPostId}`, { intent: "suspend", reason: "理由", days: `7${NUL}` }),
    ],
  },
  { route: "routes/_default.admin.users._index", method: "GET", as: "cookie", request: (ctx) => get("/admin/users", queryString({ q: fc.constantFrom(ctx.deskPersonId, "処分", "fuzz@", "%_\\", "") })) },
  { route: "routes/_default.admin.users._index", method: "POST", as: "cookie", request: () => post("/admin/users?index", noPost()) },
  { route: "routes/_default.admin.users.$id", method: "GET", as: "cookie", request: (ctx) => segment(ctx.deskPersonId).chain((id) => get(`/admin/users/${id}`)) },
  {
    route: "routes/_default.admin.users.$id",
    method: "POST",
    as: "cookie",
    refusalWrites: ["rate_limit_events"],
    request: (ctx) => segment(ctx.deskPersonId).chain((id) => post(`/admin/users/${id}`, decision())),
    examples: (ctx) => [formExample(`/admin/users/${ctx.deskPersonId}`, { intent: "ban", reason: `${NUL}` })],
  },
  {
    route: "routes/_default.admin.audit",
    method: "GET",
    as: "cookie",
    request: (ctx) =>
      get(
        "/admin/audit",
        queryString({
          operator: fc.constantFrom("", ctx.memberId, "not-a-uuid"),
          type: fc.constantFrom("", "user", "payout", "nope"),
          target: fc.constantFrom("", ctx.deskPersonId, "x"),
          kind: fc.constantFrom("", "sanction", "report_decided", "nope"),
          before: fc.constantFrom("", "1", "9007199254740993", "-1", "abc"),
        }),
      ),
  },
  { route: "routes/_default.admin.audit", method: "POST", as: "cookie", request: () => post("/admin/audit", noPost()) },
  { route: "routes/admin.media.$uploadId", method: "GET", as: "cookie", request: (ctx) => segment(ctx.deskPostId).chain((id) => get(`/admin/media/${id}`)) },
];
