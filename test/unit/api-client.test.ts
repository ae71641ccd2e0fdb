import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, createApiClient } from "~/lib/api-client";
import { createLazyApiClient } from "~/lib/lazy-api-client";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const networkFailure = () => new TypeError("Failed to fetch");
const abortError = () => new DOMException("The operation was aborted.", "AbortError");

function client(fetchImpl: typeof fetch, extra: { token?: string | null; sleep?: (ms: number) => Promise<void> } = {}) {
  const token = "token" in extra ? extra.token : "tok-123";
  return createApiClient({ getAccessToken: () => token, fetch: fetchImpl, ...(extra.sleep ? { sleep: extra.sleep } : {}) });
}

/** What the client handed to fetch on a given call. */
function sent(fetchMock: ReturnType<typeof vi.fn>, call = 0) {
  const [path, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { path, init, headers: new Headers(init.headers) };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("no session (docs/product.md#roles)", () => {
  it.each([null, undefined, ""])("skips the call silently when the token is %j", async (token) => {
    const fetchMock = vi.fn<typeof fetch>();
    const api = createApiClient({ getAccessToken: async () => token, fetch: fetchMock });
    await expect(api.request("/api/coins/balance")).resolves.toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("the request it sends", () => {
  it("carries the bearer token and asks for JSON on a GET", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json({ totalBalance: 1200 }));
    const result = await client(fetchMock).request<{ totalBalance: number }>("/api/coins/balance");

    expect(result).toEqual({ totalBalance: 1200 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const { path, init, headers } = sent(fetchMock);
    expect(path).toBe("/api/coins/balance");
    expect(init.method).toBe("GET");
    expect(init.credentials).toBe("same-origin");
    expect(init.body).toBeUndefined();
    expect(headers.get("Authorization")).toBe("Bearer tok-123");
    expect(headers.get("Accept")).toBe("application/json");
    expect(headers.get("Content-Type")).toBeNull();
  });

  it("JSON-encodes a body and passes the signal through", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json({ success: true }));
    const controller = new AbortController();
    const body = { bookingId: "b1", rating: 5, comment: "楽しかった", tipAmount: 100 };
    await client(fetchMock).request("/api/reviews", { method: "POST", body, signal: controller.signal });

    const { init, headers } = sent(fetchMock);
    expect(init.method).toBe("POST");
    expect(init.body).toBe('{"bookingId":"b1","rating":5,"comment":"楽しかった","tipAmount":100}');
    expect(init.signal).toBe(controller.signal);
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(headers.get("Authorization")).toBe("Bearer tok-123");
  });

  it("post and patch send their verb and body; a body alone defaults to POST", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(null, { status: 204 }));
    const api = client(fetchMock);
    await api.patch("/api/notifications", { all: true });
    await api.post("/api/chat/rooms", { participantIds: ["u2"], type: "direct", name: null });
    await api.request("/api/user/online-status", { body: {} });

    expect(sent(fetchMock, 0).init.method).toBe("PATCH");
    expect(sent(fetchMock, 0).init.body).toBe('{"all":true}');
    expect(sent(fetchMock, 1).init.method).toBe("POST");
    expect(sent(fetchMock, 1).init.body).toBe('{"participantIds":["u2"],"type":"direct","name":null}');
    expect(sent(fetchMock, 2).init.method).toBe("POST");
  });

  it("sends a FormData body as it is (fetch writes the multipart boundary) and delete sends its verb", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(null, { status: 204 }));
    const api = client(fetchMock);
    const form = new FormData();
    form.set("type", "post");
    form.set("file", new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }), "photo.jpg");
    await api.post("/api/uploads", form);
    await api.delete("/api/posts/p1");

    expect(sent(fetchMock, 0).init.body).toBe(form);
    expect(sent(fetchMock, 0).headers.get("Content-Type")).toBeNull();
    expect(sent(fetchMock, 1).init.method).toBe("DELETE");
    expect(sent(fetchMock, 1).init.body).toBeUndefined();
  });
});

describe("the browser's client: the session in its cookies", () => {
  it("sends no Authorization header, and the cookies go with a same-origin call", async () => {
    const fetchMock = vi.fn(async () => json({ ok: true }));
    const api = createApiClient({ hasSession: () => true, fetch: fetchMock as unknown as typeof fetch });
    await api.get("/api/coins/balance");
    const { headers, init } = sent(fetchMock);
    expect(headers.has("Authorization")).toBe(false);
    expect(init.credentials).toBe("same-origin");
  });

  it("makes no call while there is no session", async () => {
    const fetchMock = vi.fn(async () => json({ ok: true }));
    const api = createApiClient({ hasSession: () => false, fetch: fetchMock as unknown as typeof fetch });
    expect(await api.get("/api/coins/balance")).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("the lazily loaded client", () => {
  it("loads the client at the first call and answers as it does", async () => {
    const fetchMock = vi.fn(async () => json({ totalBalance: 3 }));
    const api = createLazyApiClient({ hasSession: () => true, fetch: fetchMock as unknown as typeof fetch });
    expect(await api.get("/api/coins/balance")).toEqual({ totalBalance: 3 });
    await api.post("/api/user/online-status");
    expect(sent(fetchMock, 1).init.method).toBe("POST");
  });

  it("makes no call without a session", async () => {
    const fetchMock = vi.fn(async () => json({}));
    const api = createLazyApiClient({ hasSession: () => false, fetch: fetchMock as unknown as typeof fetch });
    expect(await api.patch("/api/notifications")).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("retrying a failed network request (docs/product.md#api)", () => {
  it("makes exactly 3 attempts in all, then throws the last error", async () => {
    const errors = [networkFailure(), networkFailure(), networkFailure()];
    let call = 0;
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw errors[call++];
    });
    const sleep = vi.fn(async (_ms: number) => {});

    const error = await caught(client(fetchMock, { sleep }).request("/api/tickets/all"));
    expect(error).toBe(errors[2]);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100, 200]);
  });

  it("pauses 100 ms after the 1st failure and 200 ms after the 2nd", async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw networkFailure();
    });
    const outcome = caught(client(fetchMock).request("/api/tickets/all"));

    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);

    expect(await outcome).toBeInstanceOf(TypeError);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it("resolves when the 2nd attempt succeeds", async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockRejectedValueOnce(networkFailure())
      .mockResolvedValueOnce(json({ unreadCount: 4 }));
    const sleep = vi.fn(async (_ms: number) => {});

    await expect(client(fetchMock, { sleep }).request("/api/chat/unread-count")).resolves.toEqual({ unreadCount: 4 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sleep.mock.calls).toEqual([[100]]);
  });
});

describe("never retried once aborted (docs/product.md#api)", () => {
  it("does not call fetch when the signal is already aborted", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json({}));
    const controller = new AbortController();
    const reason = abortError();
    controller.abort(reason);

    expect(await caught(client(fetchMock).request("/api/notifications", { signal: controller.signal }))).toBe(reason);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("stops during the pause and throws the abort reason", async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw networkFailure();
    });
    const controller = new AbortController();
    const outcome = caught(client(fetchMock).request("/api/notifications", { signal: controller.signal }));

    await vi.advanceTimersByTimeAsync(50);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const reason = abortError();
    controller.abort(reason);

    expect(await outcome).toBe(reason);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("makes exactly 1 attempt when fetch rejects with an AbortError, without pausing", async () => {
    const rejection = abortError();
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw rejection;
    });
    const sleep = vi.fn(async (_ms: number) => {});

    expect(await caught(client(fetchMock, { sleep }).request("/api/chat/rooms?limit=20&offset=0"))).toBe(rejection);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it("makes exactly 1 attempt when the signal aborted while fetch was in flight", async () => {
    const controller = new AbortController();
    const fetchMock = vi.fn<typeof fetch>(async () => {
      controller.abort();
      throw networkFailure();
    });
    const sleep = vi.fn(async (_ms: number) => {});

    expect(await caught(client(fetchMock, { sleep }).request("/api/auth/me", { signal: controller.signal }))).toBeInstanceOf(
      TypeError,
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });
});

describe("HTTP errors (docs/product.md#errors)", () => {
  it.each([
    [401, "unauthorized", "認証が必要です"],
    [403, "forbidden", "認証が必要です"],
    [404, "profile_not_found", "リソースが見つかりません"],
    [422, "insufficient_coins", "処理に失敗しました"],
    [500, "internal", "処理に失敗しました"],
  ])("status %i → ApiError with its status, the envelope code and the catalogue message", async (status, code, message) => {
    const fetchMock = vi.fn<typeof fetch>(async () =>
      json({ success: false, error: { code, message: "server-side text" } }, status),
    );
    const sleep = vi.fn(async (_ms: number) => {});

    const error = await caught(client(fetchMock, { sleep }).request("/api/auth/me"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "ApiError", status, code, message });
    // The server answered, so asking again would get the same answer.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it("keeps the status and leaves code undefined when the error body is not the JSON envelope", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response("<html>Bad Gateway</html>", { status: 502 }));
    const error = await caught(client(fetchMock).request("/api/coins/balance"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, message: "処理に失敗しました" });
    expect((error as ApiError).code).toBeUndefined();
  });
});

describe("empty answers", () => {
  it("resolves undefined on 204", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(null, { status: 204 }));
    await expect(client(fetchMock).request("/api/chat/rooms/r1/mark-read", { method: "POST" })).resolves.toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("resolves undefined on a 200 with an empty body", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response("", { status: 200 }));
    await expect(client(fetchMock).request("/api/user/online-status", { body: {} })).resolves.toBeUndefined();
  });
});
