import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { authFormError, requireUser } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { log } from "~/infra/logger.server";
import { messages } from "~/lib/messages";
import { sessionFormSchema } from "~/lib/validation/sessions";
import { revokeUserSession } from "~/models/auth/session-list.server";

const BACK = "/settings/security";

/**
 * The forms of 「ログイン中の端末」 on /settings/security (plain forms, app/components/session-list.tsx), back to the
 * page with a toast. 「この端末以外からログアウト」 is supabase-js `signOut({ scope: "others" })`, the same against hosted
 * Supabase; the auth server closes those sessions' sockets itself (server/auth/logout.ts). 「ログアウト」 of one
 * session needs the embedded auth's sessions (revokeUserSession): one that is not the caller's, or not live, is
 * refused as unknown, and the caller's own is for the header's 「ログアウト」. Cross-site posts never get here
 * (server/security.ts).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = sessionFormSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) throw new Response(messages.validation.checkInput, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const back = (type: "success" | "error", title: string) => redirectWithToast(request, context.config, BACK, { type, title });
  const form = parsed.data;
  if (form.intent === "sign-out-others") {
    const { error } = await context.auth.supabase().auth.signOut({ scope: "others" });
    if (!error) throw await back("success", messages.sessions.othersSignedOut);
    log.warn({ err: error }, "settings: signing out the other devices failed");
    throw await back("error", authFormError(error).message);
  }
  if (form.sessionId === user.sessionId) throw await back("error", messages.sessions.currentSession);
  const ended = user.sessionId ? await revokeUserSession({ db: context.db, userId: user.id, sessionId: form.sessionId }) : false;
  throw await back(ended ? "success" : "error", ended ? messages.sessions.sessionSignedOut : messages.sessions.sessionNotFound);
}

/** The forms post here; a visit goes to the page they are on. */
export async function loader() {
  throw redirect(BACK);
}
