import { getZodConstraint } from "@conform-to/zod";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { loginSchema, signupSchema } from "~/lib/validation/auth";
import { createRoomSchema, listMessagesQuerySchema, listRoomsQuerySchema, sendMessageSchema } from "~/lib/validation/chat";
import { coinHistoryQuerySchema } from "~/lib/validation/coins";
import { isStorableJson, isStorableText, multiLineText, pageQuerySchema, singleLineText } from "~/lib/validation/fields";
import { inquirySchema } from "~/lib/validation/inquiry";
import { listNotificationsQuerySchema } from "~/lib/validation/notification";
import { profileSchema } from "~/lib/validation/profile";

const valid = { name: " 山田 ", email: "a@example.jp", category: "trouble", body: " 不具合です " };
const errorsOf = (input: Record<string, unknown>) => {
  const result = inquirySchema.safeParse(input);
  return result.success ? {} : result.error.flatten().fieldErrors;
};

describe("inquiry schema", () => {
  it("accepts and trims a valid inquiry", () => {
    expect(inquirySchema.parse(valid)).toEqual({ name: "山田", email: "a@example.jp", category: "trouble", body: "不具合です" });
  });

  it("explains every problem in Japanese", () => {
    expect(errorsOf({})).toEqual({
      name: ["入力してください"],
      email: ["入力してください"],
      category: ["選択してください"],
      body: ["入力してください"],
    });
    expect(errorsOf({ ...valid, name: "あ".repeat(51), email: "x", category: "admin", body: "い".repeat(2001) })).toEqual({
      name: ["50文字以内で入力してください"],
      email: ["メールアドレスの形式が正しくありません"],
      category: ["選択肢から選んでください"],
      body: ["2000文字以内で入力してください"],
    });
  });
});

const INVALID = "使用できない文字が含まれています";
// Whole code points (astral too) and single UTF-16 units (so controls and lone surrogates come up often).
const anyCodeUnitOrPoint = fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)));
const issuesOf = (schema: z.ZodTypeAny, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("stored text (singleLineText, multiLineText)", () => {
  const line = singleLineText(10);
  const lines = multiLineText(10);

  it("accepts any script and emoji, trimmed and in NFC", () => {
    expect(line.parse("  ゲーマー😀  ")).toBe("ゲーマー😀");
    expect(line.parse("\u304b\u3099")).toBe("\u304c"); // か + combining dakuten → が
    expect(lines.parse("e\u0301\tx")).toBe("\u00e9\tx");
  });

  it("refuses NUL, other C0 controls, DEL, C1 controls and lone surrogates with one Japanese message", () => {
    for (const bad of ["a\u0000b", "a\u0001", "a\u001bb", "a\u007fb", "a\u0085b", "a\u009fb", "a\ud800", "\udc00a", "a\ude00\ud83db", "\ud83d\ud83d"]) {
      expect(issuesOf(line, bad), JSON.stringify(bad)).toEqual([INVALID]);
      expect(issuesOf(lines, bad), JSON.stringify(bad)).toEqual([INVALID]);
    }
  });

  it("keeps line breaks and tabs to multi-line text, with a browser's CRLF (or CR) as LF", () => {
    expect(issuesOf(line, "a\nb")).toEqual([INVALID]);
    expect(issuesOf(line, "a\tb")).toEqual([INVALID]);
    expect(issuesOf(line, "a\rb")).toEqual([INVALID]);
    expect(lines.parse("a\r\nb\rc\n\td")).toBe("a\nb\nc\n\td");
    expect(issuesOf(lines, "a\u000bb")).toEqual([INVALID]);
    expect(issuesOf(lines, "a\u000cb")).toEqual([INVALID]);
  });

  it("counts the limit after normalising, and says what is required or of the wrong type", () => {
    expect(lines.parse("0123\r\n4567")).toBe("0123\n4567");
    expect(issuesOf(line, "あ".repeat(11))).toEqual(["10文字以内で入力してください"]);
    expect(issuesOf(line, "   ")).toEqual(["入力してください"]);
    expect(issuesOf(line, undefined)).toEqual(["入力してください"]);
    expect(issuesOf(line, 42)).toEqual(["入力内容を確認してください"]);
    expect(issuesOf(line, ["a"])).toEqual(["入力内容を確認してください"]);
    expect(issuesOf(multiLineText(10, { required: "メッセージを入力してください" }), "")).toEqual(["メッセージを入力してください"]);
    expect(singleLineText(10, { required: false }).parse("")).toBe("");
  });

  it("holds its rules for any string it accepts (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: anyCodeUnitOrPoint, maxLength: 20 }), fc.boolean(), (input, multiLine) => {
        const result = (multiLine ? lines : line).safeParse(input);
        if (!result.success) return;
        expect(result.data).toBe(result.data.normalize("NFC"));
        expect(isStorableText(result.data, { multiLine })).toBe(true);
        expect(result.data.includes("\u0000")).toBe(false);
        if (!multiLine) expect(/[\n\t]/.test(result.data)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("stays a string schema to Conform: the form constraints still come from it", () => {
    expect(getZodConstraint(inquirySchema)).toMatchObject({
      name: { required: true, minLength: 1, maxLength: 50 },
      body: { required: true, minLength: 1, maxLength: 2000 },
    });
    expect(getZodConstraint(profileSchema)).toMatchObject({ displayName: { required: true, maxLength: 30 }, bio: { required: false, maxLength: 500 } });
  });
});

describe("every text field of the shared schemas refuses what cannot be stored", () => {
  const roomId = "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11";
  const cases: Array<[string, z.ZodTypeAny, Record<string, unknown>, string]> = [
    ["inquiry name", inquirySchema, valid, "name"],
    ["inquiry body", inquirySchema, valid, "body"],
    ["inquiry email", inquirySchema, valid, "email"],
    ["login email", loginSchema, { email: "a@example.jp", password: "x" }, "email"],
    ["signup redirectTo", signupSchema, { email: "a@example.jp", password: "password1", redirectTo: "/chat" }, "redirectTo"],
    ["profile displayName", profileSchema, { displayName: "そら" }, "displayName"],
    ["profile bio", profileSchema, { displayName: "そら", bio: "よろしく" }, "bio"],
    ["profile avatarUrl", profileSchema, { displayName: "そら", avatarUrl: "https://example.jp/a.png" }, "avatarUrl"],
    ["chat content", sendMessageSchema, { roomId, content: "こんにちは" }, "content"],
    ["room name", createRoomSchema, { participantIds: [roomId], type: "GROUP", name: "部屋" }, "name"],
  ];
  it.each(cases)("%s", (_, schema, input, field) => {
    expect(schema.safeParse(input).success).toBe(true);
    const result = schema.safeParse({ ...input, [field]: `${String(input[field])}\u0000` });
    expect(result.success).toBe(false);
    expect(result.error!.flatten().fieldErrors[field]).toContain(field === "email" ? "メールアドレスの形式が正しくありません" : INVALID);
  });

  it("nested text too: game slugs and ranks, a caption", () => {
    expect(issuesOf(profileSchema, { displayName: "そら", games: [{ slug: "apex", rank: "ダイヤ\u0000" }] })).toEqual([INVALID]);
    expect(issuesOf(profileSchema, { displayName: "そら", games: [{ slug: "ap\u0000ex" }] })).toEqual([INVALID]);
    expect(issuesOf(sendMessageSchema, { roomId, content: "a", metadata: { caption: "\ud800" } })).toEqual([INVALID]);
  });

  it("user_metadata: every key and string of the JSON, not too deep", () => {
    expect(isStorableJson({ name: "そら", list: [1, "二", { ok: true }] })).toBe(true);
    expect(isStorableJson({ name: "a\u0000" })).toBe(false);
    expect(isStorableJson({ ["k\u0000"]: 1 })).toBe(false);
    expect(isStorableJson([[["\udc00"]]])).toBe(false);
    expect(isStorableJson(JSON.parse("[".repeat(40) + "]".repeat(40)))).toBe(false);
  });
});

describe("query strings", () => {
  it("refuse what is not a whole number in range, rather than hand it to the database", () => {
    for (const offset of ["abc", "1e400", "Infinity", "1.5", "-1", "18446744073709551616", "1000001"]) {
      expect(listRoomsQuerySchema.safeParse({ offset }).success, offset).toBe(false);
      expect(listNotificationsQuerySchema.safeParse({ offset }).success, offset).toBe(false);
      expect(coinHistoryQuerySchema.safeParse({ offset }).success, offset).toBe(false);
    }
    for (const before of ["0", "x", "9007199254740993", "1e20"]) {
      expect(listMessagesQuerySchema.safeParse({ roomId: "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11", before }).success, before).toBe(false);
    }
    expect(pageQuerySchema.safeParse({ page: "10001" }).success).toBe(false);
    expect(pageQuerySchema.parse({})).toEqual({ page: 0 });
    expect(listRoomsQuerySchema.parse({ limit: "5", offset: "40" })).toEqual({ limit: 5, offset: 40 });
  });
});
