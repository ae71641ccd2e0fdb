import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { deskMoneyRows } from "../../support/fuzz/rows/desk-money";
import { noInputAnswers500, unstorableTextIsRefused } from "../../support/fuzz/rules";
import { useFuzzWorld } from "../../support/fuzz/world";

/**
 * The fuzz table's rows for the desk's payouts and inquiries (test/support/fuzz/rows/desk-money.ts) under each rule
 * (test/support/fuzz/rules.ts; ADR 014, ADR 054), sent with the world's admin's cookies or none, against a server of this file's own.
 */

const file = path.relative(process.cwd(), fileURLToPath(import.meta.url));
const world = useFuzzWorld();

describe("input fuzzing: the desk's payouts and inquiries", () => {
  noInputAnswers500(deskMoneyRows, world, file);
  unstorableTextIsRefused(deskMoneyRows, world, file);
});
