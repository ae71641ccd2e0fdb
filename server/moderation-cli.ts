import { MODERATION_USAGE, parseModerationArgs, runModerationCommand } from "./moderation-command";
import { runOperatorCli } from "./operator-cli";

// `npm run moderation -- list|show ID|hide ID|dismiss ID|suspend USER_ID --days N|ban USER_ID|restore ID` (ADR 030).
const args = process.argv.slice(2);
const parsed = parseModerationArgs(args);
if ("error" in parsed) {
  console.error(parsed.error);
  console.error(MODERATION_USAGE);
  process.exit(1);
}
await runOperatorCli((io) => runModerationCommand(args, io));
