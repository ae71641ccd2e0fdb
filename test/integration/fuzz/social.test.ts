import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { socialRows } from "../../support/fuzz/rows/social";
import { noInputAnswers500, TAKES_NO_BODY, unstorableTextIsRefused } from "../../support/fuzz/rules";
import { tableChecksumsOf, useFuzzWorld } from "../../support/fuzz/world";

/**
 * The fuzz table's social rows (test/support/fuzz/rows/social.ts) under each rule (test/support/fuzz/rules.ts; ADR 014,
 * ADR 054): generated bodies, queries and paths, signed in or not, against a server of this file's own.
 */

const file = path.relative(process.cwd(), fileURLToPath(import.meta.url));
const world = useFuzzWorld();

describe("input fuzzing: social", () => {
  noInputAnswers500(socialRows, world, file);
  unstorableTextIsRefused(socialRows, world, file, {
    lenient: {
      "POST routes/mypage.avatar": "every answer is a redirect back with a toast, a refusal's an error toast",
      "POST routes/_default.unsubscribe": "RFC 8058's one-click: the signed query decides, the body is never read",
      "DELETE routes/api.posts.$id": TAKES_NO_BODY,
      "PATCH routes/api.notifications": TAKES_NO_BODY,
      "POST routes/api.user.online-status": TAKES_NO_BODY,
      "POST routes/api.users.$id.block": TAKES_NO_BODY,
      "DELETE routes/api.users.$id.block": TAKES_NO_BODY,
      "POST routes/_default.notifications": `${TAKES_NO_BODY} (すべて既読にする posts an empty form)`,
    },
  });
});

describe("bad input answers 400 with a Japanese error and writes nothing", () => {
  it("a NUL in stored text is a 400 with the Japanese field error, on the API and on the form, and nothing is written", async () => {
    const ctx = world();
    const checksums = await tableChecksumsOf(ctx.app);
    const before = await checksums();
    const api = (pathname: string, body: unknown) =>
      ctx.app.request(pathname, { method: "POST", body: JSON.stringify(body), headers: { Authorization: `Bearer ${ctx.bearer}`, "Content-Type": "application/json" } });
    const cases = [
      [await api("/api/chat/messages", { roomId: ctx.roomId, content: "a\u0000b" }), "content"],
      [await api("/api/user/profile", { displayName: "そ\u0000ら" }), "displayName"],
      [await api("/api/user/profile", { displayName: "そら", bio: "\ud800" }), "bio"],
      [await api("/api/chat/rooms", { participantIds: [ctx.otherId], type: "GROUP", name: "部\u0000屋" }), "name"],
    ] as const;
    for (const [response, name] of cases) {
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors[name]).toEqual(["使用できない文字が含まれています"]);
    }
    const form = await ctx.app.request("/mypage/gamer-edit", {
      method: "POST",
      body: new URLSearchParams({ displayName: "ハル\u0000" }),
      headers: { Cookie: ctx.cookie, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain("使用できない文字が含まれています");
    expect(await checksums()).toEqual(before);
  });
});
