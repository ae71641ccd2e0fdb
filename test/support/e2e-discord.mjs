// @ts-check
// The e2e suite's Discord (playwright.config.ts starts it beside the app): discord-stand-in.mjs on a fixed port, which
// the app is given as DISCORD_URL and DISCORD_CDN_URL. A browser flow picks who signs in on its consent page's fields;
// GET /healthz tells Playwright it is up.
import { startDiscordStandIn } from "./discord-stand-in.mjs";

const port = Number(process.env.E2E_DISCORD_PORT ?? 3127);
const redirectUri = process.env.E2E_DISCORD_REDIRECT_URI;
if (!redirectUri) {
  console.error("e2e-discord: E2E_DISCORD_REDIRECT_URI is required (the app's Discord callback URL)");
  process.exit(1);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`e2e-discord: E2E_DISCORD_PORT is not a port: ${process.env.E2E_DISCORD_PORT}`);
  process.exit(1);
}

const standIn = await startDiscordStandIn({
  clientId: process.env.E2E_DISCORD_CLIENT_ID || "100000000000000001",
  clientSecret: process.env.E2E_DISCORD_CLIENT_SECRET || "stand-in-secret",
  // Comma-separated: each e2e server's callback.
  redirectUri: redirectUri.split(",").map((uri) => uri.trim()),
  port,
  host: "127.0.0.1",
});
console.log(`e2e-discord: listening on ${standIn.url}, redirect_uri ${redirectUri}`);

// Playwright stops its web servers with a signal; closing ends the open sockets so the process exits at once.
for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT"])) {
  process.once(signal, () => {
    standIn.close().then(() => process.exit(0));
  });
}
