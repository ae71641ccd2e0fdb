import type { ApiClient, ApiClientOptions, ApiRequestInit } from "./api-client";

type Init = Omit<ApiRequestInit, "method" | "body">;

/**
 * The API client with its code loaded at the first call: a visitor's page never makes one, so it never fetches the
 * client. Same methods and answers as createApiClient; without a session no call is made, nor code loaded.
 */
export function createLazyApiClient(options: ApiClientOptions): ApiClient {
  let loaded: Promise<ApiClient> | undefined;
  const client = () => (loaded ??= import("./api-client").then(({ createApiClient }) => createApiClient(options)));
  const call = async <T>(use: (api: ApiClient) => Promise<T | undefined>): Promise<T | undefined> =>
    options.hasSession && !options.hasSession() ? undefined : use(await client());
  return {
    request: <T>(path: string, init?: ApiRequestInit) => call((api) => api.request<T>(path, init)),
    get: <T>(path: string, init?: Init) => call((api) => api.get<T>(path, init)),
    post: <T>(path: string, body?: unknown, init?: Init) => call((api) => api.post<T>(path, body, init)),
    patch: <T>(path: string, body?: unknown, init?: Init) => call((api) => api.patch<T>(path, body, init)),
    delete: <T>(path: string, init?: Init) => call((api) => api.delete<T>(path, init)),
  };
}
