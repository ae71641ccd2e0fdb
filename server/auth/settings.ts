import type { Handler } from "./context";
import { json } from "./helpers";

/** What the embedded auth can tell supabase-js about itself (`GET /settings`), as GoTrue's settings.go says it. */
export const settings: Handler = async (api) =>
  json({
    external: { anonymous_users: false, email: true, phone: false, discord: !!api.discord },
    disable_signup: false,
    mailer_autoconfirm: !api.confirmEmail,
    phone_autoconfirm: false,
    sms_provider: "",
    saml_enabled: false,
  });
