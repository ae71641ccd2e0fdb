import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOutScopeSchema } from "~/lib/schemas";

/**
 * Sign-out is a POST (a link could be triggered by anyone) and goes to / (SPEC §2). It ends this browser's session
 * only, as supabase-js `signOut({ scope: "local" })` does; /settings offers `scope=global` to end every device's.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const scope = signOutScopeSchema.catch("local").parse(form.get("scope") ?? undefined);
  await context.auth.supabase().auth.signOut({ scope });
  throw redirect("/");
}

export async function loader() {
  throw redirect("/");
}
