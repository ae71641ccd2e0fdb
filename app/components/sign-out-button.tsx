import { Form, useSubmit } from "@remix-run/react";
import type { FormEvent } from "react";

/** This browser's push subscription, if it has one (asking needs no permission): forgotten at sign-out. */
async function thisDevicesPush(): Promise<PushSubscription | null> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager?.getSubscription()) ?? null;
}

/**
 * Sign-out is a POST to /logout (docs/product.md#screens: it goes to /); a plain form, so it works without JavaScript.
 * `everywhere` ends the sessions of every device the user is signed in on, not just this one. With JavaScript this
 * browser's push subscription (ADR 052) goes too: the next person on a shared computer gets none of this account's
 * notifications. The browser forgets it, and the form names its endpoint for the server to delete.
 */
export function SignOutButton({ className, everywhere = false }: { className: string; everywhere?: boolean }) {
  const submit = useSubmit();
  const signOut = async (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    if (form.dataset.pushChecked) return; // the second time through: send it
    event.preventDefault();
    const subscription = await thisDevicesPush().catch(() => null);
    const endpoint = form.elements.namedItem("pushEndpoint") as HTMLInputElement;
    if (subscription) {
      endpoint.value = subscription.endpoint;
      await subscription.unsubscribe().catch(() => false);
    }
    form.dataset.pushChecked = "1";
    submit(form);
  };
  return (
    <Form method="post" action="/logout" onSubmit={signOut}>
      {everywhere ? <input type="hidden" name="scope" value="global" /> : null}
      <input type="hidden" name="pushEndpoint" defaultValue="" />
      <button type="submit" className={className}>
        {everywhere ? "すべての端末からログアウト" : "ログアウト"}
      </button>
    </Form>
  );
}
