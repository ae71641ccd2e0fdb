import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ApiError } from "~/lib/api-client";
import { SERVICE_WORKER_PATH } from "~/lib/constants/installed-app";
import * as pushText from "~/lib/messages/push";
import { useAuth } from "./auth-provider";

/**
 * What this browser can do about push: not yet known (before hydration, and while it looks), nothing (no service
 * worker or PushManager), nothing until installed (iOS Safari: only a web app added to the home screen gets pushes),
 * nothing until the user allows notifications in the settings, or off / on for this device.
 */
type State = "checking" | "unsupported" | "ios-install" | "denied" | "off" | "on" | "working";

const isIos = () => /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
const isInstalled = () => (navigator as Navigator & { standalone?: boolean }).standalone === true || window.matchMedia("(display-mode: standalone)").matches;
const canPush = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** The VAPID key as `applicationServerKey` takes it. */
function keyBytes(base64url: string) {
  const binary = atob(base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "="));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** As the server's pushEndpointTag: the first 22 characters of the URL-safe base64 SHA-256 of the endpoint. */
async function endpointTag(endpoint: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint)));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "").slice(0, 22);
}

/**
 * The service worker's registration: the one at `/` (registered after load by the app, ADR 053), registered here if
 * the page was too quick for it; waited for until active, for at most 10 s.
 */
async function serviceWorker() {
  const registration = (await navigator.serviceWorker.getRegistration("/")) ?? (await navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: "/" }));
  if (registration.active) return registration;
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the service worker did not start")), 10_000)),
  ]);
}

/**
 * 「この端末にプッシュ通知」: asks for permission only when pressed, never on load, then subscribes this
 * browser with the server's VAPID key and hands the subscription to POST /api/push/subscriptions. Says plainly when
 * this browser cannot. `devices` tells whether this browser's subscription is one the server knows (by its tag).
 */
export function PushDeviceControl({ publicKey, deviceTags }: { publicKey: string; deviceTags: readonly string[] }) {
  const { api } = useAuth();
  const revalidator = useRevalidator();
  const [state, setState] = useState<State>("checking");
  const [message, setMessage] = useState<string | null>(null);
  const known = deviceTags.join(",");

  useEffect(() => {
    let cancelled = false;
    const settle = (next: State) => {
      if (!cancelled) setState(next);
    };
    if (isIos() && !isInstalled()) return settle("ios-install");
    if (!canPush()) return settle("unsupported");
    if (Notification.permission === "denied") return settle("denied");
    // Looking costs no permission prompt: getSubscription never asks.
    navigator.serviceWorker
      .getRegistration("/")
      .then((registration) => registration?.pushManager.getSubscription())
      .then(async (subscription) => settle(subscription && known.split(",").includes(await endpointTag(subscription.endpoint)) ? "on" : "off"))
      .catch(() => settle("off"));
    return () => {
      cancelled = true;
    };
  }, [known]);

  const enable = async () => {
    setState("working");
    setMessage(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "denied" : "off");
        return;
      }
      const registration = await serviceWorker();
      const applicationServerKey = keyBytes(publicKey);
      let subscription = await registration.pushManager.getSubscription();
      // Subscribed with another key (the server's keys were replaced): that subscription no longer works.
      const current = subscription?.options.applicationServerKey;
      if (subscription && current && btoa(String.fromCharCode(...new Uint8Array(current))) !== btoa(String.fromCharCode(...applicationServerKey))) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
      await api.post("/api/push/subscriptions", subscription.toJSON());
      setState("on");
      setMessage(pushText.enabledNow);
      revalidator.revalidate();
    } catch {
      setState("off");
      setMessage(pushText.failed);
    }
  };

  const disable = async () => {
    setState("working");
    setMessage(null);
    try {
      const registration = await navigator.serviceWorker.getRegistration("/");
      const subscription = await registration?.pushManager.getSubscription();
      if (subscription) {
        // The server forgets it by its endpoint; one it no longer knows (removed meanwhile) is forgotten already.
        await api.request("/api/push/subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } }).catch((error: unknown) => {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        });
        await subscription.unsubscribe();
      }
      setState("off");
      setMessage(pushText.disabledNow);
      revalidator.revalidate();
    } catch {
      setState("on");
      setMessage(pushText.failed);
    }
  };

  const notice =
    state === "ios-install" ? pushText.iosNotInstalled : state === "unsupported" ? pushText.unsupported : state === "denied" ? pushText.denied : null;
  return (
    <div className="space-y-2" data-push-state={state}>
      <noscript>
        <p className="text-sm text-slate-600">{pushText.needsScript}</p>
      </noscript>
      {notice ? (
        <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {notice}
        </p>
      ) : null}
      {state === "on" ? <p className="text-sm text-slate-700">{pushText.enabledHere}</p> : null}
      {state === "off" || state === "working" || state === "checking" ? (
        <button type="button" className="btn-primary" onClick={() => void enable()} disabled={state !== "off"} hidden={state === "checking"}>
          {state === "working" ? pushText.enabling : pushText.enable}
        </button>
      ) : null}
      {state === "on" ? (
        <button type="button" className="btn-secondary" onClick={() => void disable()}>
          {pushText.disableHere}
        </button>
      ) : null}
      {message ? (
        <p role="status" className="text-sm text-slate-700">
          {message}
        </p>
      ) : null}
    </div>
  );
}
