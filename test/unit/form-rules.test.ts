import { describe, expect, it } from "vitest";
import { formRules } from "~/lib/form-rules.server";
import { signupSchema } from "~/lib/validation/auth";
import { inquirySchema } from "~/lib/validation/inquiry";
import { payoutSchema } from "~/lib/validation/payout";

// The browser validates forms with these rules instead of the zod schema: the words must be the schema's own.
describe("formRules: a schema's rules as the browser checks them", () => {
  it("gives each field Conform's constraint attributes", () => {
    const { constraint } = formRules(signupSchema);
    expect(constraint.email).toMatchObject({ required: true, maxLength: 254 });
    expect(constraint.password).toMatchObject({ required: true, minLength: 8, maxLength: 72 });
  });

  it("says what the schema says when each rule is broken", () => {
    const { messages } = formRules(signupSchema);
    expect(messages.email).toEqual({
      valueMissing: "入力してください",
      tooLong: "254文字以内で入力してください",
      typeMismatch: "メールアドレスの形式が正しくありません",
    });
    expect(messages.password?.tooShort).toBe("パスワードは8文字以上で入力してください");
    expect(formRules(inquirySchema).messages.category?.valueMissing).toBe("選択してください");
  });

  it("reads the words for numbers out of range", () => {
    const { messages } = formRules(payoutSchema);
    expect(messages.coins?.rangeUnderflow).toBe("1,000コイン以上で申請してください");
    expect(messages.coins?.rangeOverflow).toBe("1回の申請は10,000,000コインまでです");
  });

  it("keeps patterns apart from the attributes (the schema reads the text normalised), with their words", () => {
    const rules = formRules(payoutSchema);
    expect(rules.constraint.accountHolder?.pattern).toBeUndefined();
    expect(new RegExp(`^(?:${rules.patterns.accountHolder})$`, "u").test("ゲーマー")).toBe(true);
    expect(new RegExp(`^(?:${rules.patterns.accountHolder})$`, "u").test("げーまー")).toBe(false);
    expect(new RegExp(`^(?:${rules.patterns.accountNumber})$`, "u").test("１１１２２２３".normalize("NFKC"))).toBe(true);
    expect(rules.messages.accountHolder?.patternMismatch).toBe("口座名義はカタカナで入力してください");
  });

  it("leaves out zod's English defaults, which are no message for a person", () => {
    for (const words of Object.values(formRules(payoutSchema).messages)) {
      for (const message of Object.values(words)) expect(message).toMatch(/[^\x20-\x7e]/);
    }
  });
});
