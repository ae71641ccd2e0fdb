import { loadConfig } from "../app/infra/config";
import { hostedAppMetadata } from "../app/infra/auth/hosted-admin";
import { embeddedRoleStore, hostedRoleStore } from "../app/models/operators.server";
import { runOperatorCli } from "./operator-cli";
import { OPERATORS_USAGE, parseOperatorsArgs, runOperatorsCommand } from "./operators-command";

// `npm run operators -- list | grant EMAIL ROLE --reason "…" | revoke EMAIL ROLE --reason "…"` (ADR 068).
const args = process.argv.slice(2);
const parsed = parseOperatorsArgs(args);
if ("error" in parsed) {
  console.error(parsed.error);
  console.error(OPERATORS_USAGE);
  process.exit(1);
}
const config = loadConfig();
const local = !config.SUPABASE_URL;
const hosted = hostedAppMetadata(config);
if (!local && !hosted) {
  console.error("Supabase の役割（app_metadata）を変えるには SUPABASE_SERVICE_ROLE_KEY が必要です");
  process.exit(1);
}
await runOperatorCli((io) => runOperatorsCommand(args, { ...io, local, store: hosted ? hostedRoleStore(hosted) : embeddedRoleStore }));
