import { Form } from "@remix-run/react";

/**
 * Sign-out is a POST to /logout (SPEC §2: it goes to /); a plain form, so it works without JavaScript.
 * `everywhere` ends the sessions of every device the user is signed in on, not just this one.
 */
export function SignOutButton({ className, everywhere = false }: { className: string; everywhere?: boolean }) {
  return (
    <Form method="post" action="/logout">
      {everywhere ? <input type="hidden" name="scope" value="global" /> : null}
      <button type="submit" className={className}>
        {everywhere ? "すべての端末からログアウト" : "ログアウト"}
      </button>
    </Form>
  );
}
