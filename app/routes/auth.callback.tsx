import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { log } from "~/infra/logger.server";

/** Where Supabase sends the browser back after Discord: trade the PKCE code for a session, then go to the site root. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const code = new URL(request.url).searchParams.get("code");
  if (code) {
    const { error } = await context.auth.supabase().auth.exchangeCodeForSession(code);
    if (error) log.warn({ err: error }, "auth: code exchange failed");
  }
  throw redirect("/");
}
