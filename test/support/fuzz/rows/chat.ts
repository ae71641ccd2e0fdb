import fc from "fast-check";
import { formBody, formExample, get, jsonBody, jsonExample, nastyString, NUL, post, queryString, type Row, segment, text } from "../generators";

/** Chat: the /api/chat routes and the chat pages' forms and queries. */
export const chatRows: Row[] = [
  {
    route: "routes/api.chat.messages",
    method: "GET",
    as: "bearer",
    request: (ctx) => get("/api/chat/messages", queryString({ roomId: fc.constant(ctx.roomId), before: fc.constantFrom("1", "999999", "9007199254740991") })),
  },
  {
    route: "routes/api.chat.messages",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      post(
        "/api/chat/messages",
        jsonBody({
          roomId: fc.constant(ctx.roomId),
          content: text("こんにちは\nよろしく"),
          messageType: fc.constant("TEXT"),
          metadata: fc.oneof(fc.constant(null), fc.record({ caption: text("キャプション") })),
        }),
      ),
    examples: (ctx) => [
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, content: `a${NUL}b` }),
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, content: "\ud800" }),
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, content: "a", metadata: { caption: NUL } }),
    ],
  },
  {
    route: "routes/api.chat.rooms.$roomId.mark-read",
    method: "POST",
    as: "bearer",
    request: (ctx) => segment(ctx.roomId).chain((id) => post(`/api/chat/rooms/${id}/mark-read`, jsonBody({}))),
  },
  { route: "routes/api.chat.rooms", method: "GET", as: "bearer", request: () => get("/api/chat/rooms", queryString({ limit: fc.constantFrom("1", "20"), offset: fc.constantFrom("0", "20") })) },
  {
    route: "routes/api.chat.rooms",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      post(
        "/api/chat/rooms",
        jsonBody({ participantIds: fc.constant([ctx.otherId]), type: fc.constantFrom("DIRECT", "GROUP"), name: fc.oneof(fc.constant(null), text("週末APEX部")) }),
      ),
    examples: (ctx) => [jsonExample("/api/chat/rooms", { participantIds: [ctx.otherId], type: "GROUP", name: `部${NUL}屋` })],
  },
  { route: "routes/api.chat.unread-count", method: "GET", as: "bearer", request: () => get("/api/chat/unread-count", queryString({ x: nastyString })) },
  {
    route: "routes/_chat.chat.$roomId",
    method: "POST",
    as: "cookie",
    request: (ctx) => segment(ctx.roomId).chain((id) => post(`/chat/${id}`, formBody({ content: text("フォームから\r\n失礼します") }))),
    examples: (ctx) => [formExample(`/chat/${ctx.roomId}`, { content: `フォーム${NUL}` })],
  },
  { route: "routes/_chat.chat.$roomId", method: "GET", as: "cookie", request: (ctx) => get(`/chat/${ctx.roomId}`, queryString({ before: fc.constantFrom("1", "100") })) },
  { route: "routes/_chat.chat._index", method: "GET", as: "cookie", request: (ctx) => get("/chat", queryString({ page: fc.constantFrom("0", "1"), with: fc.constant(ctx.otherId) })) },
];
