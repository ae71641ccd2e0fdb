import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commerceRows } from "../../support/fuzz/rows/commerce";
import { noInputAnswers500, TAKES_NO_BODY, unstorableTextIsRefused } from "../../support/fuzz/rules";
import { useFuzzWorld } from "../../support/fuzz/world";

/**
 * The fuzz table's commerce rows (test/support/fuzz/rows/commerce.ts) under each rule (test/support/fuzz/rules.ts; ADR 014,
 * ADR 054): generated bodies, queries and paths, signed in or not, against a server of this file's own.
 */

const file = path.relative(process.cwd(), fileURLToPath(import.meta.url));
const world = useFuzzWorld({ stripe: true });

describe("input fuzzing: commerce", () => {
  noInputAnswers500(commerceRows, world, file);
  unstorableTextIsRefused(commerceRows, world, file, {
    lenient: { "DELETE routes/api.store.subscription-plan": TAKES_NO_BODY, "POST routes/api.tickets.$id.$action without a body": TAKES_NO_BODY },
  });
});

describe("long URLs answer as short ones do", () => {
  it("a signed-out visit to a page with a very long query goes to the login page with a Location clients can read", async () => {
    const long = `/tickets/${world().listingId}/confirm?units=1&desiredStartTime=2030-01-01T21:00&note=${"あ".repeat(500)}&pad=${"x".repeat(4000)}`;
    const response = await world().app.request(long, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: `/tickets/${world().listingId}/confirm` })}`);
  });

  it("the booking confirmation keeps only the form's fields when it adds its key", async () => {
    const response = await world().app.request(`/tickets/${world().listingId}/confirm?units=1&desiredStartTime=2030-01-01T21:00&junk=${"x".repeat(5000)}`, {
      redirect: "manual",
      headers: { Cookie: world().cookie },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/tickets/${world().listingId}/confirm\\?units=1&desiredStartTime=2030-01-01T21%3A00&key=[0-9a-f-]{36}$`));
  });
});
