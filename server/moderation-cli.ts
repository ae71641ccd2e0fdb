import { loadConfig } from "../app/infra/config";
import { createImageStorage } from "../app/infra/storage";
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
await runOperatorCli((io) => {
  // The image store, as the app configures it: `show` gives a way to view a reported picture, `hide` removes a hidden message's.
  const config = loadConfig();
  return runModerationCommand(args, { ...io, media: { storage: createImageStorage(config), config } });
});
