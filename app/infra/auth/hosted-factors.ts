import type { AppConfig } from "~/infra/config";
import { hostedAuthAdmin } from "./hosted-admin";

/**
 * With hosted Supabase, a recovery code's effect on GoTrue's own factors (ADR 064): the account's factors deleted
 * through the admin API (`auth.admin.mfa.deleteFactor`), which needs the service-role key. Without that key the app
 * cannot turn a hosted account's second step off, and says so rather than spend the code.
 */
export function hostedFactorRemover(config: Pick<AppConfig, "SUPABASE_URL" | "SUPABASE_SERVICE_ROLE_KEY">) {
  const admin = hostedAuthAdmin(config);
  if (!admin) return null;
  return async (userId: string, factorIds: readonly string[]) => {
    for (const id of factorIds) {
      const { error } = await admin.mfa.deleteFactor({ id, userId });
      if (error && error.status !== 404) throw error;
    }
  };
}
