import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { accountsRows } from "../../support/fuzz/rows/accounts";
import { noInputAnswers500, TAKES_NO_BODY, unstorableTextIsRefused } from "../../support/fuzz/rules";
import { useFuzzWorld } from "../../support/fuzz/world";

/**
 * The fuzz table's accounts rows (test/support/fuzz/rows/accounts.ts) under each rule (test/support/fuzz/rules.ts; ADR 014,
 * ADR 054): generated bodies, queries and paths, signed in or not, against a server of this file's own.
 */

const file = path.relative(process.cwd(), fileURLToPath(import.meta.url));
const world = useFuzzWorld();

describe("input fuzzing: accounts", () => {
  noInputAnswers500(accountsRows, world, file);
  unstorableTextIsRefused(accountsRows, world, file, {
    lenient: { "POST routes/logout": "signing out always works: a body with NUL reads as an empty one (app/routes/logout.tsx)", "POST auth:POST /logout": TAKES_NO_BODY },
  });
});
