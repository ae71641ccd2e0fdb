import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { deskRows } from "../../support/fuzz/rows/desk";
import { noInputAnswers500, unstorableTextIsRefused } from "../../support/fuzz/rules";
import { useFuzzWorld } from "../../support/fuzz/world";

/**
 * The fuzz table's operators' desk rows (test/support/fuzz/rows/desk.ts) under each rule (test/support/fuzz/rules.ts;
 * ADR 014, ADR 054), sent with an admin's cookies at aal2, and signed out.
 */

const file = path.relative(process.cwd(), fileURLToPath(import.meta.url));
const world = useFuzzWorld();

describe("input fuzzing: the operators' desk", () => {
  noInputAnswers500(deskRows, world, file);
  unstorableTextIsRefused(deskRows, world, file);
});
