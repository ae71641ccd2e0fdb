import { Form } from "@remix-run/react";

/** Sign-out is a POST to /logout (SPEC §2: it goes to /); a plain form, so it works without JavaScript. */
export function SignOutButton({ className }: { className: string }) {
  return (
    <Form method="post" action="/logout">
      <button type="submit" className={className}>
        ログアウト
      </button>
    </Form>
  );
}
