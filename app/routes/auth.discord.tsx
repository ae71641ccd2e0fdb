import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { messages } from "~/lib/messages";

/**
 * 「Discordでログイン」: supabase-js's OAuth sign-in with PKCE, to hosted Supabase's authorize URL or the embedded auth's
 * own (/auth/v1/authorize, ADR 039), which sends the browser on to Discord; it returns to /auth/callback (docs/product.md#accounts).
 * A plain form post, so it works before JavaScript loads.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!context.auth.publicConfig.discord) throw new Response(messages.api.notFound, { status: 404 });
  const form = await readFormData(request);
  // Back to the site root (docs/product.md#accounts), or to the page that asked for a sign-in.
  const next = safeRedirectPath(form.get("redirectTo"), "/");
  // SITE_URL, not the request's Host, is where the auth server lets a sign-in come back to.
  const site = context.config.SITE_URL ?? new URL(request.url).origin;
  const { data, error } = await context.auth.supabase().auth.signInWithOAuth({
    provider: "discord",
    options: {
      redirectTo: `${site}/auth/callback?${new URLSearchParams({ next })}`,
      scopes: "identify email guilds",
      skipBrowserRedirect: true,
    },
  });
  if (error || !data.url) throw new Response(messages.auth.failed, { status: 502 });
  // An absolute URL: a full page load (docs/product.md#screens).
  throw redirect(data.url);
}

export async function loader() {
  throw redirect("/login");
}
