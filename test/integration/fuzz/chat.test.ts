import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { chatRows } from "../../support/fuzz/rows/chat";
import { noInputAnswers500, TAKES_NO_BODY, unstorableTextIsRefused } from "../../support/fuzz/rules";
import { useFuzzWorld } from "../../support/fuzz/world";

/**
 * The fuzz table's chat rows (test/support/fuzz/rows/chat.ts) under each rule (test/support/fuzz/rules.ts; ADR 014,
 * ADR 054): generated bodies, queries and paths, signed in or not, against a server of this file's own.
 */

const file = path.relative(process.cwd(), fileURLToPath(import.meta.url));
const world = useFuzzWorld();

describe("input fuzzing: chat", () => {
  noInputAnswers500(chatRows, world, file);
  unstorableTextIsRefused(chatRows, world, file, { lenient: { "POST routes/api.chat.rooms.$roomId.mark-read": TAKES_NO_BODY } });
});
