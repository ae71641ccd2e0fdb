import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A mail as the test SMTP server received it. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: ParsedMail["headers"];
  /** Every http(s) link in the plain text, in order. */
  links: string[];
  raw: string;
}

export interface TestMailServer {
  /** smtp://127.0.0.1:<port> for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** The mails to `address` so far. */
  to(address: string): ReceivedMail[];
  /** Waits for a mail to `address` beyond the first `after` of them (default: any). */
  waitFor(address: string, options?: { after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  /** While true, every mail is refused with 451 (a server that fails for a while). */
  failing: boolean;
  /**
   * Holds every mail's answer until the function it returns is called: a send in flight for as long as a test needs
   * (the database stopped under it). The mails held are then taken in (or refused, if failing) as usual.
   */
  hold(): () => void;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (the `smtp-server` package), collecting what the app sends. */
export async function startTestMailServer(): Promise<TestMailServer> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const state = { failing: false, held: undefined as Promise<void> | undefined };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        await state.held;
        if (state.failing) {
          const error = Object.assign(new Error("Temporary failure"), { responseCode: 451 });
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await simpleParser(raw);
        const text = parsed.text ?? "";
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: parsed.subject ?? "",
          text,
          html: typeof parsed.html === "string" ? parsed.html : "",
          messageId: parsed.messageId ?? "",
          headers: parsed.headers,
          links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
          raw,
        });
        callback();
        for (const wake of waiters) wake();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    hold() {
      let release!: () => void;
      state.held = new Promise<void>((resolve) => (release = resolve));
      const held = state.held;
      return () => {
        if (state.held === held) state.held = undefined;
        release();
      };
    },
    waitFor(address, { after = 0, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = to(address)[after];
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${address} (after ${after}) within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
