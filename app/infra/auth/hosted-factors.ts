import { createClient } from "@supabase/supabase-js";
import type { AppConfig } from "~/infra/config";

/**
 * With hosted Supabase, a recovery code's effect on GoTrue's own factors (ADR 064): the account's factors deleted
 * through the admin API (`auth.admin.mfa.deleteFactor`), which needs the service-role key. Without that key the app
 * cannot turn a hosted account's second step off, and says so rather than spend the code.
 */
export function hostedFactorRemover(config: Pick<AppConfig, "SUPABASE_URL" | "SUPABASE_SERVICE_ROLE_KEY">) {
  if (!config.SUPABASE_URL || !config.SUPABASE_SERVICE_ROLE_KEY) return null;
  const admin = createClient(config.SUPABASE_URL, config.SUPABASE_SERVICE_ROLE_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
  return async (userId: string, factorIds: readonly string[]) => {
    for (const id of factorIds) {
      const { error } = await admin.auth.admin.mfa.deleteFactor({ id, userId });
      if (error && error.status !== 404) throw error;
    }
  };
}
