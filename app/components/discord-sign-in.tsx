import { Form } from "@remix-run/react";
import { useRootData } from "./root-data";

/**
 * 「Discordでログイン」 on /login and /signup, when the auth server has Discord (hosted Supabase, or DISCORD_CLIENT_ID
 * on the embedded auth). A plain form post: it works before JavaScript loads. `redirectTo` comes back after sign-in.
 */
export function DiscordSignIn({ redirectTo }: { redirectTo: string | null }) {
  const discord = useRootData()?.auth.discord;
  if (!discord) return null;
  return (
    <Form method="post" action="/auth/discord" className="mt-4" reloadDocument>
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <div className="mb-4 flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        または
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <button type="submit" className="btn w-full bg-[#5865F2] text-white hover:bg-[#4752c4]">
        Discordでログイン
      </button>
    </Form>
  );
}
