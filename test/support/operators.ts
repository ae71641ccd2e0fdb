import type { Operator } from "../../app/models/operator-audit.server";

/** The operator tests act as when they call the operators' model functions directly: the command line's kind. */
export const TEST_OPERATOR: Operator = { id: null, label: "cli:test" };
