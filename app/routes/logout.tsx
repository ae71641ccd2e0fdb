import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOutScopeSchema } from "~/lib/schemas";
import { removeAllPushDevices } from "~/models/push.server";

/**
 * Sign-out is a POST (a link could be triggered by anyone) and goes to / (SPEC §2). It ends this browser's session
 * only, as supabase-js `signOut({ scope: "local" })` does; /settings offers `scope=global` to end every device's,
 * which also ends every device's push notifications (ADR 052).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const scope = signOutScopeSchema.catch("local").parse(form.get("scope") ?? undefined);
  const user = scope === "global" ? await context.auth.getUser() : null;
  await context.auth.supabase().auth.signOut({ scope });
  if (user) await removeAllPushDevices(context.db, { userId: user.id });
  throw redirect("/");
}

export async function loader() {
  throw redirect("/");
}
