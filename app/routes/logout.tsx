import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { unstorableFormEntry } from "~/http/unstorable.server";
import { signOutScopeSchema } from "~/lib/validation/auth";
import { pushEndpointSchema } from "~/lib/validation/push";
import { removeAllPushDevices, removePushEndpoint } from "~/models/push.server";

/**
 * Sign-out is a POST (a link could be triggered by anyone) and goes to / (docs/product.md#screens). It ends this browser's session
 * only, as supabase-js `signOut({ scope: "local" })` does, and this browser's push notifications when the form names
 * its subscription; /settings offers `scope=global` to end every device's, which also ends every device's push
 * notifications (ADR 052).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const body = await request.formData().catch(() => new FormData());
  // A NUL anywhere (the database could not compare an endpoint with one) reads as no form: signing out still works.
  const form = unstorableFormEntry(body) === null ? body : new FormData();
  const scope = signOutScopeSchema.catch("local").parse(form.get("scope") ?? undefined);
  // This browser's push subscription, named by the sign-out button (it unsubscribed it too): its notifications end here.
  const endpoint = pushEndpointSchema.shape.endpoint.safeParse(form.get("pushEndpoint") || undefined);
  const user = scope === "global" || endpoint.success ? await context.auth.getUser() : null;
  await context.auth.supabase().auth.signOut({ scope });
  if (user && scope === "global") await removeAllPushDevices(context.db, { userId: user.id });
  else if (user && endpoint.success) await removePushEndpoint({ db: context.db, userId: user.id, endpoint: endpoint.data }).catch(() => {}); // gone already
  // The code page's 「ログアウトして別のアカウントでログイン」 goes on to /login; every other sign-out to /.
  throw redirect(form.get("next") === "/login" ? "/login" : "/");
}

export async function loader() {
  throw redirect("/");
}
