import { createCookieSessionStorage, redirect } from "@remix-run/node";
import type { AppConfig } from "~/infra/config";
import { toastSchema, type Toast, type ToastInput } from "~/lib/toast";

const TOAST_KEY = "toast";

const storages = new Map<string, ReturnType<typeof createStorage>>();
function createStorage(secret: string) {
  return createCookieSessionStorage({
    cookie: { name: "gm_toast", path: "/", httpOnly: true, sameSite: "lax", secrets: [secret] },
  });
}
const storageFor = (config: Pick<AppConfig, "SESSION_SECRET">) => {
  let storage = storages.get(config.SESSION_SECRET);
  if (!storage) storages.set(config.SESSION_SECRET, (storage = createStorage(config.SESSION_SECRET)));
  return storage;
};
const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

/** The Set-Cookie header that flashes a toast for the next page the browser loads. */
export async function flashToast(request: Request, config: Pick<AppConfig, "SESSION_SECRET">, input: ToastInput) {
  const { getSession, commitSession } = storageFor(config);
  const session = await getSession(request.headers.get("Cookie"));
  const toast: Toast = { id: crypto.randomUUID(), ...input };
  session.flash(TOAST_KEY, toast);
  return commitSession(session, { secure: isHttps(request) });
}

/** A redirect that shows a toast on the page it leads to, with or without JavaScript (Epic Stack's redirectWithToast). */
export async function redirectWithToast(
  request: Request,
  config: Pick<AppConfig, "SESSION_SECRET">,
  url: string,
  toast: ToastInput,
  init?: ResponseInit,
) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await flashToast(request, config, toast));
  return redirect(url, { ...init, headers });
}

/** The flashed toast, if any, and the Set-Cookie header that clears it (the root loader sends both). */
export async function getToast(request: Request, config: Pick<AppConfig, "SESSION_SECRET">) {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("gm_toast=")) return { toast: null, headers: null };
  const { getSession, destroySession } = storageFor(config);
  const session = await getSession(cookie);
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: new Headers({ "Set-Cookie": await destroySession(session, { secure: isHttps(request) }) }),
  };
}
