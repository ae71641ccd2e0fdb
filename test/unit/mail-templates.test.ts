import { describe, expect, it } from "vitest";
import { MAIL_KINDS } from "~/lib/constants";
import { verifyUnsubscribe } from "~/lib/unsubscribe.server";
import type { OutboxMail } from "~/models/mail-outbox.server";
import { renderMail } from "../../server/mail/templates";

const ctx = { siteUrl: "https://gamermatch.test", secret: "s".repeat(32) };
const USER = "7f1b8a52-4f7a-4d0e-9a51-2f5c6f0a1e11";
const mail = (kind: string, data: Record<string, unknown>): OutboxMail => ({
  id: 7,
  kind,
  to_address: "a@example.jp",
  user_id: USER,
  topic: null,
  data,
  created_at: new Date("2026-11-24T00:00:00Z"),
  attempts: 1,
  next_attempt_at: new Date(),
  locked_until: null,
  sent_at: null,
  failed_at: null,
  last_error: null,
});

describe("mail templates", () => {
  it.each([
    ["recovery", "【GamerMatch】パスワードの再設定", "type=recovery"],
    ["signup_confirm", "【GamerMatch】メールアドレスの確認", "type=signup"],
    ["email_change_confirm", "【GamerMatch】新しいメールアドレスの確認", "type=email_change"],
  ])("%s: Japanese, with its one-time link to /auth/confirm in both parts", (kind, subject, type) => {
    const rendered = renderMail(mail(kind, { token: "tok-123", newEmail: "b@example.jp" }), ctx);
    expect(rendered.subject).toBe(subject);
    expect(rendered.link).toBe(`https://gamermatch.test/auth/confirm?token_hash=tok-123&${type}`);
    expect(rendered.text).toContain(rendered.link);
    expect(rendered.html).toContain(rendered.link.replace(/&/g, "&amp;"));
    expect(rendered.text).toContain("GamerMatch");
    expect(rendered.headers).toEqual({});
  });

  it("a notification mail escapes what users wrote and carries RFC 8058 headers with a signed link to that kind only", () => {
    const rendered = renderMail(mail("booking_requested", { title: "<b>予約</b>が入りました", body: "一行目\n<script>alert(1)</script>", link: "/settings/ticket-management" }), ctx);
    expect(rendered.subject).toBe("【GamerMatch】<b>予約</b>が入りました");
    expect(rendered.html).not.toContain("<script>");
    expect(rendered.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(rendered.link).toBe("https://gamermatch.test/settings/ticket-management");
    expect(rendered.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = new URL(/^<(.+)>$/.exec(rendered.headers["List-Unsubscribe"]!)![1]!);
    expect(unsubscribe.pathname).toBe("/unsubscribe");
    expect(verifyUnsubscribe({ secret: ctx.secret, params: unsubscribe.searchParams })).toEqual({ userId: USER, kind: "booking_requested" });
    expect(rendered.text).toContain(unsubscribe.toString());
  });

  it("an inquiry's reply (ADR 072): the greeting, the reply as written, the question quoted, escaped in HTML, no unsubscribe", () => {
    const rendered = renderMail(mail("inquiry_reply", { name: "山田 <太郎>", reply: "一行目\n<b>二行目</b>", inquiry: "質問1\n質問2" }), ctx);
    expect(rendered.subject).toBe("【GamerMatch】お問い合わせへの回答");
    expect(rendered.text).toContain("山田 <太郎> 様\n");
    expect(rendered.text).toContain("一行目\n<b>二行目</b>");
    expect(rendered.text).toContain("――お問い合わせ内容――\n> 質問1\n> 質問2");
    expect(rendered.link).toBe("https://gamermatch.test/inquiry");
    expect(rendered.html).toContain("&lt;b&gt;二行目&lt;/b&gt;");
    expect(rendered.html).not.toContain("<b>二行目");
    expect(rendered.headers).toEqual({});
  });

  it("every notification kind renders, and an unknown kind is an error rather than an empty mail", () => {
    for (const kind of MAIL_KINDS) expect(renderMail(mail(kind, { title: "t", body: "b", link: "/" }), ctx).subject).toBe("【GamerMatch】t");
    expect(() => renderMail(mail("nonsense", {}), ctx)).toThrow(/no mail template/);
  });

  it("a changed or forged unsubscribe link verifies as nothing", () => {
    const rendered = renderMail(mail("review_received", { title: "t", body: "b", link: "/" }), ctx);
    const params = new URL(/^<(.+)>$/.exec(rendered.headers["List-Unsubscribe"]!)![1]!).searchParams;
    const changed = (key: string, value: string) => {
      const copy = new URLSearchParams(params);
      copy.set(key, value);
      return verifyUnsubscribe({ secret: ctx.secret, params: copy });
    };
    expect(changed("k", "booking_requested")).toBeNull();
    expect(changed("u", "00000000-0000-0000-0000-000000000000")).toBeNull();
    expect(changed("s", params.get("s")!.slice(0, -1))).toBeNull();
    expect(verifyUnsubscribe({ secret: "another-secret-another-secret-00", params })).toBeNull();
  });
});
