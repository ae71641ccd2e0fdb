import { createClient } from "@supabase/supabase-js";
import type { AppConfig } from "~/infra/config";

type HostedConfig = Pick<AppConfig, "SUPABASE_URL" | "SUPABASE_SERVICE_ROLE_KEY">;

/**
 * With hosted Supabase, GoTrue's admin API (`auth.admin`) through supabase-js with the service-role key; null without
 * that key (or without hosted Supabase), where the caller says it cannot act rather than act on half.
 */
export function hostedAuthAdmin(config: HostedConfig) {
  if (!config.SUPABASE_URL || !config.SUPABASE_SERVICE_ROLE_KEY) return null;
  return createClient(config.SUPABASE_URL, config.SUPABASE_SERVICE_ROLE_KEY, { auth: { persistSession: false, autoRefreshToken: false } }).auth.admin;
}

/**
 * A hosted account's `app_metadata` (what its owner cannot change): read with `getUserById`, and keys written with
 * `updateUserById(id, { app_metadata })`, which GoTrue merges into what is there (a key set to null is removed).
 */
export function hostedAppMetadata(config: HostedConfig) {
  const admin = hostedAuthAdmin(config);
  if (!admin) return null;
  return {
    /** Nothing for an account GoTrue does not have (deleted there, or never there). */
    async read(userId: string): Promise<Record<string, unknown> | undefined> {
      const { data, error } = await admin.getUserById(userId);
      if (error?.status === 404) return undefined;
      if (error) throw error;
      return data.user.app_metadata ?? {};
    },
    async write(userId: string, appMetadata: Record<string, unknown>) {
      const { error } = await admin.updateUserById(userId, { app_metadata: appMetadata });
      if (error) throw error;
    },
  };
}
export type HostedAppMetadata = NonNullable<ReturnType<typeof hostedAppMetadata>>;
