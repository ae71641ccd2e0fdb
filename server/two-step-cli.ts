import { loadConfig } from "../app/infra/config";
import { runOperatorCli } from "./operator-cli";
import { parseTwoStepArgs, runTwoStepCommand, TWO_STEP_USAGE } from "./two-step-command";

// `npm run two-step -- show USER_ID | off USER_ID --reason "…"` (ADR 064).
const args = process.argv.slice(2);
const parsed = parseTwoStepArgs(args);
if ("error" in parsed) {
  console.error(parsed.error);
  console.error(TWO_STEP_USAGE);
  process.exit(1);
}
const local = !loadConfig().SUPABASE_URL;
await runOperatorCli((io) => runTwoStepCommand(args, { ...io, local }));
