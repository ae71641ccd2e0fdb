// ./scenes' `test` (plain Playwright) rather than ./fixtures': this spec counts bytes and checks no behaviour, and the
// fixture would run axe-core on its page loads.
import { expect, type BrowserContext } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { FIRST_LOAD_BUDGET_KB, firstVisit, signInContext } from "../support/first-load.mjs";
import { createUser, E2E_PASSWORD } from "./fixtures";
import { checkFirstLoad } from "./page-checks";
import { test } from "./scenes";

/**
 * The first-load JavaScript budget of the one page the sweep cannot reach: /login/mfa, which only a sign-in that owes
 * its second step shows, held to the signed-out budget. Every other page's weight is checked by page-sweep.spec.ts's
 * first visits on a phone.
 */
test(`owing the second step, /login/mfa fetches at most ${FIRST_LOAD_BUDGET_KB.signedOut} KB of gzip'd JavaScript`, async ({ browser, baseURL }) => {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId, reducedMotion } = test.info().project.use;
  const context = await browser.newContext({ baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId, reducedMotion });
  try {
    const member = await memberWithApp(context, baseURL!);
    const page = await context.newPage();
    // Until the code is given the session counts as signed out (ADR 064): the page is held to that budget.
    const load = await firstVisit(page, new URL("/login/mfa", baseURL).href, { idleMs: 1000, signIn: () => signInContext(context, baseURL, member) });
    await checkFirstLoad(page, load, "signedOut", "/login/mfa");
  } finally {
    await context.close();
  }
});

/**
 * A member who confirmed an authenticator app on /settings/security, through its forms as a browser without JavaScript
 * posts them: a password sign-in of theirs then owes the app's code. The context is left signed in; a first visit
 * clears its cookies anyway.
 */
async function memberWithApp(context: BrowserContext, baseURL: string) {
  const member = { email: (await createUser(context.request, "計測の二段階さん")).email, password: E2E_PASSWORD };
  await signInContext(context, baseURL, member);
  const enrolment = await (await context.request.post("/settings/security", { form: { intent: "enroll" } })).text();
  const secret = /data-secret="([A-Z2-7]+)"/.exec(enrolment)?.[1];
  const factorId = /name="factorId" value="([0-9a-f-]{36})"/.exec(enrolment)?.[1];
  expect(secret && factorId, "the enrolment's key and factor").toBeTruthy();
  const code = TOTP.generate({ secret: Secret.fromBase32(secret!), algorithm: "SHA1", digits: 6, period: 30 });
  const confirmed = await context.request.post("/settings/security", { form: { intent: "confirm", factorId: factorId!, secret: secret!, code } });
  expect(await confirmed.text()).toContain('data-testid="recovery-codes"');
  return member;
}
