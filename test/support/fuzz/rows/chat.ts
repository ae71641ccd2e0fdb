import fc from "fast-check";
import { fileForm, formBody, formExample, get, jsonBody, jsonExample, nastyString, NUL, post, queryString, type Row, segment, text, uuidLike } from "../generators";

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
    // An image message: an upload id (nobody's, or not a uuid) and a caption.
    route: "routes/api.chat.messages",
    method: "POST",
    as: "bearer",
    request: (ctx) =>
      post(
        "/api/chat/messages",
        jsonBody({
          roomId: fc.constant(ctx.roomId),
          content: fc.oneof(uuidLike, text("not-an-upload")),
          messageType: fc.constant("IMAGE"),
          metadata: fc.oneof(fc.constant(null), fc.record({ caption: text("ランク上がった") })),
          clientId: fc.oneof(uuidLike, text("x")),
        }),
      ),
    examples: (ctx) => [
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, messageType: "IMAGE", content: "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11", metadata: { caption: `見${NUL}て` } }),
      jsonExample("/api/chat/messages", { roomId: ctx.roomId, messageType: "IMAGE", content: "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11", metadata: { caption: "あ".repeat(501) } }),
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
  {
    // The plain form with a picture (multipart): the file judged by its bytes, the text its caption. An upload attempt
    // counts towards the upload limit even when refused.
    route: "routes/_chat.chat.$roomId",
    method: "POST",
    as: "cookie",
    refusalWrites: ["rate_limit_windows"],
    request: (ctx) => segment(ctx.roomId).chain((id) => post(`/chat/${id}`, fileForm("file", { content: text("スクショです"), clientId: fc.oneof(uuidLike, text("x")) }))),
  },
  { route: "routes/media.$uploadId", method: "GET", as: "cookie", request: () => uuidLike.chain((id) => segment(id)).chain((id) => get(`/media/${id}`, queryString({ x: nastyString }))) },
  { route: "routes/media.$uploadId.small", method: "GET", as: "bearer", request: () => uuidLike.chain((id) => segment(id)).chain((id) => get(`/media/${id}/small`)) },
  { route: "routes/_chat.chat.$roomId", method: "GET", as: "cookie", request: (ctx) => get(`/chat/${ctx.roomId}`, queryString({ before: fc.constantFrom("1", "100") })) },
  { route: "routes/_chat.chat._index", method: "GET", as: "cookie", request: (ctx) => get("/chat", queryString({ page: fc.constantFrom("0", "1"), with: fc.constant(ctx.otherId) })) },
];
