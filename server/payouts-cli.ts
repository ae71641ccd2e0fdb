import { runOperatorCli } from "./operator-cli";
import { parsePayoutsArgs, PAYOUTS_USAGE, runPayoutsCommand } from "./payouts-command";

// `npm run payouts -- list|pay ID|reject ID` (ADR 020).
const args = process.argv.slice(2);
if (!parsePayoutsArgs(args)) {
  console.error(PAYOUTS_USAGE);
  process.exit(1);
}
await runOperatorCli((io) => runPayoutsCommand(args, io));
