import { expect } from "@playwright/test";

/** A mail as the e2e mail server (test/support/e2e-mail-server.mjs) received it. */
export interface E2EMail {
  to: string[];
  subject: string;
  text: string;
  links: string[];
}

const MAIL_HTTP = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT ?? 3126}`;

/** The mails to `address` so far, oldest first. */
export async function mailsTo(address: string): Promise<E2EMail[]> {
  const response = await fetch(`${MAIL_HTTP}/mails?${new URLSearchParams({ to: address })}`);
  return (await response.json()) as E2EMail[];
}

/** Waits for the `index`-th mail to `address` (the first by default) and answers it. */
export async function waitForMail(address: string, index = 0): Promise<E2EMail> {
  let found: E2EMail | undefined;
  await expect
    .poll(async () => {
      found = (await mailsTo(address))[index];
      return !!found;
    }, { message: `a mail to ${address}`, timeout: 15_000 })
    .toBe(true);
  return found!;
}
