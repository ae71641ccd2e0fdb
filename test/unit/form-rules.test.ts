import { describe, expect, it } from "vitest";
import { formRules } from "~/lib/form-rules.server";
import { signupSchema } from "~/lib/validation/auth";
import { inquirySchema } from "~/lib/validation/inquiry";
import { recoveryCodeSchema, secondStepCodeSchema } from "~/lib/validation/mfa";
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

  it("lets the browser take 二段階認証's codes as they are shown and typed, which the schemas read with the separators stripped", () => {
    // The browser's check (app/lib/form-rules.ts): the text NFKC-normalised, spaces folded, against the pattern.
    const accepts = (pattern: string | undefined, typed: string) => new RegExp(`^(?:${pattern})$`, "u").test(typed.normalize("NFKC").replace(/\s+/g, " ").trim());
    const recovery = formRules(recoveryCodeSchema).patterns.recoveryCode;
    for (const typed of ["xceiv-u6hyl", "XCEIV-U6HYL", "xceiv u6hyl", "xceivu6hyl", "ｘｃｅｉｖ－ｕ６ｈｙｌ"]) expect(accepts(recovery, typed), typed).toBe(true);
    for (const typed of ["xceiv-u6hy", "xceiv-u6hyl1", "xceiv-u0hyl", "-xceivu6hyl"]) expect(accepts(recovery, typed), typed).toBe(false);
    const code = formRules(secondStepCodeSchema).patterns.code;
    for (const typed of ["123456", "123 456", "１２３４５６", "123-456"]) expect(accepts(code, typed), typed).toBe(true);
    for (const typed of ["12345", "1234567", "12345a"]) expect(accepts(code, typed), typed).toBe(false);
  });

  it("leaves out zod's English defaults, which are no message for a person", () => {
    for (const words of Object.values(formRules(payoutSchema).messages)) {
      for (const message of Object.values(words)) expect(message).toMatch(/[^\x20-\x7e]/);
    }
  });
});
