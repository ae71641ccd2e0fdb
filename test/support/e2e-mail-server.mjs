// The e2e suite's mail server (playwright.config.ts starts it beside the app): a real SMTP server on loopback (the
// `smtp-server` package) that keeps what it receives, and a small HTTP endpoint the flows read it from:
// GET /mails?to=<address> → [{ to, subject, text, links }] (oldest first). GET /healthz tells Playwright it is up.
import http from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 3125);
const httpPort = Number(process.env.E2E_MAIL_HTTP_PORT ?? 3126);
const mails = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((parsed) => {
        const text = parsed.text ?? "";
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: parsed.subject ?? "",
          text,
          links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
        });
        callback();
      })
      .catch(callback);
  },
});
smtp.listen(smtpPort, "127.0.0.1");

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/healthz") return res.end("ok");
    if (url.pathname !== "/mails") {
      res.statusCode = 404;
      return res.end();
    }
    const to = url.searchParams.get("to")?.toLowerCase();
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(to ? mails.filter((mail) => mail.to.includes(to)) : mails));
  })
  .listen(httpPort, "127.0.0.1");
