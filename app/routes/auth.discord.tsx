import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { messages } from "~/lib/messages";

/** "Discordでログイン": to hosted Supabase's authorize URL with PKCE; it returns to /auth/callback (PRODUCT §3). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!context.auth.publicConfig.discord) throw new Response(messages.api.notFound, { status: 404 });
  const { data, error } = await context.auth.supabase().auth.signInWithOAuth({
    provider: "discord",
    options: {
      redirectTo: `${new URL(request.url).origin}/auth/callback`,
      scopes: "identify email guilds",
      skipBrowserRedirect: true,
    },
  });
  if (error || !data.url) throw new Response(messages.auth.failed, { status: 502 });
  // An absolute URL: a full page load (SPEC §2).
  throw redirect(data.url);
}

export async function loader() {
  throw redirect("/login");
}
