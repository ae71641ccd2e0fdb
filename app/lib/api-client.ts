/**
 * The one door every browser call to `/api/*` goes through (docs/product.md#roles, #api, #errors).
 */
import { FETCH_RETRY_ATTEMPTS, FETCH_RETRY_DELAY_MS } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { sleep as defaultSleep } from "~/lib/sleep";

/** Carries the HTTP status so callers can branch on it (e.g. /api/auth/me 404 = profile not set up). */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  /** The server's own code from `{ success: false, error: { code } }`, when the body said one. */
  readonly code?: string;

  constructor(message: string, status: number, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface ApiClientOptions {
  /** A bearer token for each call (server-side callers, tests); without one the call carries the session cookies. */
  getAccessToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /** Whether there is a session at all; by default, whether there is a token. */
  hasSession?: () => boolean;
  /** Injected so tests and the server-free dev harness can answer without a network. */
  fetch?: typeof fetch;
  /** Injected so tests can observe the pauses between attempts. */
  sleep?: (ms: number) => Promise<void>;
}

export interface ApiRequestInit {
  /** Defaults to POST when there is a body, since a GET with a body is a TypeError we must not retry. */
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  headers?: HeadersInit;
}

export type ApiClient = ReturnType<typeof createApiClient>;


function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** The caller's sleep knows nothing of the signal, so an abort must be able to cut the pause short. */
function pause(ms: number, sleep: (ms: number) => Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    sleep(ms).then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function messageForStatus(status: number): string {
  if (status === 401 || status === 403) return messages.api.authRequired;
  if (status === 404) return messages.api.notFound;
  return messages.api.failed;
}

/** An error body is a courtesy: a proxy's HTML page or a cut connection must still yield the status error. */
async function readErrorCode(response: Response): Promise<string | undefined> {
  try {
    const parsed: unknown = JSON.parse(await response.text());
    const code = (parsed as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}

export function createApiClient(options: ApiClientOptions) {
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;

  async function request<T>(path: string, init: ApiRequestInit = {}): Promise<T | undefined> {
    // No session means the call is simply not made (docs/product.md#roles): callers treat undefined as "nothing yet".
    const token = await options.getAccessToken?.();
    if (!(options.hasSession ? options.hasSession() : !!token)) return undefined;

    const { signal, body } = init;
    const hasBody = body !== undefined;
    // A FormData body (an upload) goes as multipart: fetch writes its Content-Type with the boundary.
    const isForm = typeof FormData !== "undefined" && body instanceof FormData;
    const headers = new Headers(init.headers);
    if (!headers.has("Accept")) headers.set("Accept", "application/json");
    if (hasBody && !isForm && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
    if (token) headers.set("Authorization", `Bearer ${token}`);

    const requestInit: RequestInit = {
      method: init.method ?? (hasBody ? "POST" : "GET"),
      headers,
      credentials: "same-origin",
      ...(hasBody ? { body: isForm ? (body as FormData) : JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    };

    let response: Response;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw abortReason(signal);
      try {
        response = await fetchImpl(path, requestInit);
        break;
      } catch (error) {
        // An abort is the caller changing its mind, not a flaky network: retrying would undo it.
        if (isAbortError(error) || signal?.aborted || attempt >= FETCH_RETRY_ATTEMPTS) throw error;
        await pause(FETCH_RETRY_DELAY_MS * attempt, sleep, signal);
      }
    }

    // The server answered, so asking again would get the same answer (and could repeat a write).
    if (!response.ok) {
      throw new ApiError(messageForStatus(response.status), response.status, await readErrorCode(response));
    }
    if (response.status === 204) return undefined;
    const text = await response.text();
    if (text === "") return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(messages.api.failed, response.status);
    }
  }

  return {
    request,
    get: <T>(path: string, init?: Omit<ApiRequestInit, "method" | "body">) =>
      request<T>(path, { ...init, method: "GET" }),
    post: <T>(path: string, body?: unknown, init?: Omit<ApiRequestInit, "method" | "body">) =>
      request<T>(path, { ...init, method: "POST", body }),
    patch: <T>(path: string, body?: unknown, init?: Omit<ApiRequestInit, "method" | "body">) =>
      request<T>(path, { ...init, method: "PATCH", body }),
    delete: <T>(path: string, init?: Omit<ApiRequestInit, "method" | "body">) => request<T>(path, { ...init, method: "DELETE" }),
  };
}
