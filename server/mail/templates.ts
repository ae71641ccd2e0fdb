import { MAIL_KINDS, PRODUCT_NAME, type MailKind } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { unsubscribeUrl } from "../../app/lib/unsubscribe.server";
import type { OutboxMail } from "../../app/models/mail-outbox.server";

/** A mail ready for the transport: plain text and simple HTML, with the link it is about (docs/product.md#accounts). */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about (printed in the log when mail goes to files). */
  link: string;
  headers: Record<string, string>;
}

export interface MailContext {
  /** Where links point, without a trailing slash. */
  siteUrl: string;
  /** Signs unsubscribe links (SESSION_SECRET). */
  secret: string;
}

interface Parts {
  subject: string;
  lead: string[];
  action: string;
  link: string;
  after: string[];
  headers?: Record<string, string>;
  footer?: string[];
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** The link a mail carries for a one-time token: a page of ours that asks for one click before it spends it. */
const confirmLink = (ctx: MailContext, type: string, token: unknown) =>
  `${ctx.siteUrl}/auth/confirm?${new URLSearchParams({ token_hash: text(token), type })}`;

const templates: Record<string, (data: Record<string, unknown>, ctx: MailContext) => Parts> = {
  recovery: (data, ctx) => ({
    subject: messages.mail.recoverySubject,
    lead: [messages.mail.recoveryLead],
    action: messages.mail.recoveryAction,
    link: confirmLink(ctx, "recovery", data.token),
    after: [messages.mail.recoveryExpiry, messages.mail.recoveryIgnore],
  }),
  signup_confirm: (data, ctx) => ({
    subject: messages.mail.signupSubject,
    lead: [messages.mail.signupLead],
    action: messages.mail.signupAction,
    link: confirmLink(ctx, "signup", data.token),
    after: [messages.mail.signupExpiry, messages.mail.signupIgnore],
  }),
  email_change_confirm: (data, ctx) => ({
    subject: messages.mail.emailChangeSubject,
    lead: [messages.mail.emailChangeLead],
    action: messages.mail.emailChangeAction,
    link: confirmLink(ctx, "email_change", data.token),
    after: [messages.mail.emailChangeExpiry, messages.mail.emailChangeIgnore],
  }),
  email_change_notice: (data, ctx) => ({
    subject: messages.mail.emailChangeNoticeSubject,
    lead: [messages.mail.emailChangeNoticeLead(text(data.newEmail))],
    action: messages.mail.emailChangeNoticeAction,
    link: `${ctx.siteUrl}/inquiry`,
    after: [messages.mail.emailChangeNoticeIgnore],
  }),
  mfa_enrolled: (data, ctx) => securityNotice(ctx, messages.mail.mfaEnrolledSubject, messages.mail.mfaEnrolledLead(text(data.friendlyName))),
  mfa_removed: (data, ctx) => securityNotice(ctx, messages.mail.mfaRemovedSubject, messages.mail.mfaRemovedLead(text(data.friendlyName))),
  mfa_recovery_used: (_data, ctx) => securityNotice(ctx, messages.mail.mfaRecoveryUsedSubject, messages.mail.mfaRecoveryUsedLead),
  mfa_reset: (_data, ctx) => securityNotice(ctx, messages.mail.mfaResetSubject, messages.mail.mfaResetLead),
  // An operator's reply from the desk (ADR 072): the reply as written, then what was asked, quoted.
  inquiry_reply: (data, ctx) => ({
    subject: messages.mail.inquiryReplySubject,
    lead: [
      messages.mail.inquiryReplyGreeting(text(data.name)),
      messages.mail.inquiryReplyLead,
      "",
      ...text(data.reply).split("\n"),
      "",
      messages.mail.inquiryReplyQuoted,
      ...text(data.inquiry)
        .split("\n")
        .map((line) => `> ${line}`),
    ],
    action: messages.mail.inquiryReplyAction,
    link: `${ctx.siteUrl}/inquiry`,
    after: [messages.mail.inquiryReplyAfter],
  }),
};

/** 二段階認証's notices (ADR 064): what changed, a link to the security settings, what to do if it was not the owner. */
function securityNotice(ctx: MailContext, subject: string, lead: string): Parts {
  return { subject, lead: [lead], action: messages.mail.mfaNoticeAction, link: `${ctx.siteUrl}/settings/security`, after: [messages.mail.mfaNoticeIgnore] };
}

/** A notification mail: its title, body and link, as stored with the notification (or the digest) it repeats. */
function notificationParts(mail: OutboxMail, kind: MailKind, ctx: MailContext): Parts {
  const path = text(mail.data.link);
  const unsubscribe = unsubscribeUrl({ siteUrl: ctx.siteUrl, secret: ctx.secret, userId: mail.user_id ?? "", kind });
  return {
    subject: `【${PRODUCT_NAME}】${text(mail.data.title)}`,
    lead: text(mail.data.body).split("\n"),
    action: messages.mail.openLink,
    link: `${ctx.siteUrl}${path.startsWith("/") ? path : "/notifications"}`,
    after: [],
    // RFC 8058: a mail client's one-click unsubscribe POSTs `List-Unsubscribe=One-Click` to this URL.
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    footer: [
      messages.mail.notificationFooter(messages.mail.kindLabels[kind]),
      `${messages.mail.unsubscribeLink}: ${unsubscribe}`,
      `${messages.mail.settingsLink}: ${ctx.siteUrl}/settings/notifications`,
    ],
  };
}

export function renderMail(mail: OutboxMail, ctx: MailContext): RenderedMail {
  const template = templates[mail.kind];
  const parts = template
    ? template(mail.data, ctx)
    : (MAIL_KINDS as readonly string[]).includes(mail.kind)
      ? notificationParts(mail, mail.kind as MailKind, ctx)
      : null;
  if (!parts) throw new Error(`no mail template for kind "${mail.kind}"`);
  const footer = [...(parts.footer ?? []), messages.mail.automatic, messages.mail.signature, ctx.siteUrl];
  const plain = [...parts.lead, "", `${parts.action}:`, parts.link, "", ...parts.after, ...(parts.after.length ? [""] : []), "――", ...footer].join("\n");
  const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>${escape(parts.subject)}</title></head>
<body style="font-family:'Hiragino Sans','Noto Sans JP',Meiryo,sans-serif;color:#0f172a;line-height:1.7">
${parts.lead.map((line) => `<p>${escape(line)}</p>`).join("\n")}
<p><a href="${escape(parts.link)}" style="display:inline-block;padding:10px 20px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">${escape(parts.action)}</a></p>
${parts.after.map((line) => `<p style="color:#475569;font-size:14px">${escape(line)}</p>`).join("\n")}
<hr><p style="color:#64748b;font-size:12px">${footer.map((line) => linkify(line)).join("<br>")}</p>
</body></html>`;
  return { subject: parts.subject, text: plain, html, link: parts.link, headers: parts.headers ?? {} };
}

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const linkify = (line: string) => escape(line).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
