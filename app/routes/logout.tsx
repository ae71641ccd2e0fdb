import { redirect, type ActionFunctionArgs } from "@remix-run/node";

/** Sign-out is a POST (a link could be triggered by anyone); it ends the session and goes to / (SPEC §2). */
export async function action({ context }: ActionFunctionArgs) {
  await context.auth.supabase().auth.signOut();
  throw redirect("/");
}

export async function loader() {
  throw redirect("/");
}
