import { describe, expect, it } from "vitest";
import { inquirySchema } from "~/lib/schemas";

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
