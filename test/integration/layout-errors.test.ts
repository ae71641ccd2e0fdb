import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as errorText from "../../app/lib/messages/error";
import { pageTitle } from "../../app/lib/meta";
import { createBrowserMember, createMember } from "../support/auth";
import { startTestServer, type TestServer } from "../support/server";

/**
 * A page that fails shows its error inside its own layout (ADR 057): the server's HTML, as a browser without JavaScript
 * gets it, holds the error and the layout's chrome with its navigation. Every failure here is a real one: an id that
 * does not exist, or a table the page's loader (or action) reads renamed away for the request, as any unexpected
 * database failure would. The root loader reads none of those tables, so only the page fails.
 */

let app: TestServer;
let member: Awaited<ReturnType<typeof createBrowserMember>>;
let sellerId: string;

beforeAll(async () => {
  app = await startTestServer({ seed: false });
  member = await createBrowserMember(app, "レイアウト確認");
  sellerId = (await createMember(app, "出品者")).id;
});
afterAll(async () => {
  await app?.close();
});

type Layout = "chat" | "default" | "documentation" | "profile" | "settings" | "store";

/** The table renamed for the duration of `run`, and back afterwards whatever happens. */
async function withoutTable<T>(table: string, run: () => Promise<T>): Promise<T> {
  await app.database.db.schema.alterTable(table).renameTo(`${table}_gone`).execute();
  try {
    return await run();
  } finally {
    await app.database.db.schema.alterTable(`${table}_gone`).renameTo(table).execute();
  }
}

/** The page's status and HTML (read before the table comes back). */
async function read(response: Promise<Response>) {
  const answer = await response;
  return { status: answer.status, html: await answer.text() };
}

/** The error page is drawn inside the layout's frame, with the header's and the phone bar's navigation around it. */
function expectInLayout(html: string, layout: Layout) {
  const frame = html.indexOf(`data-layout="${layout}"`);
  expect(frame, `the ${layout} layout's frame`).toBeGreaterThan(-1);
  expect(html.indexOf('id="error-title"'), "the error inside the frame").toBeGreaterThan(frame);
  // The header's menu and the phone's bar: both are navigation named メインメニュー.
  expect(html.match(/<nav aria-label="メインメニュー"/g)?.length).toBe(2);
  expect(html).toContain(errorText.back);
  if (layout === "documentation") expect(html).toContain('<nav aria-label="サポートと規約"');
  // Chat fills the screen: no footer, in its error too.
  if (layout === "chat") expect(html).not.toContain('aria-label="サイト情報"');
  else expect(html).toContain('aria-label="サイト情報"');
}

function expectNotFound({ status, html }: { status: number; html: string }, layout: Layout) {
  expect(status).toBe(404);
  expect(html).toContain(errorText.notFoundTitle);
  expect(html).toContain(errorText.notFoundBody);
  expect(html).toContain(`<title>${pageTitle(errorText.notFoundTitle)}</title>`);
  expectInLayout(html, layout);
}

function expectFailed({ status, html }: { status: number; html: string }, layout: Layout, table: string) {
  expect(status).toBe(500);
  expect(html).toContain(errorText.title);
  expect(html).toContain(errorText.body);
  expect(html).toContain(`<title>${pageTitle(errorText.title)}</title>`);
  // No internals leak into the page.
  expect(html).not.toContain(`${table}_gone`);
  expectInLayout(html, layout);
}

describe("a page's error stays inside its layout, without JavaScript", () => {
  it("chat: a room that is not yours is a 404; a room whose messages cannot be read is a 500", async () => {
    expectNotFound(await read(member.page(`/chat/${randomUUID()}`)), "chat");
    const room = await member.api("/api/chat/rooms", { json: { participantIds: [sellerId], type: "DIRECT", name: null } });
    expect(room.ok).toBe(true);
    const roomId = (await room.json()).data.chatRoom.id as string;
    expectFailed(await withoutTable("chat_messages", () => read(member.page(`/chat/${roomId}`))), "chat", "chat_messages");
  });

  it("default: an unknown event and an unknown path are 404s; an event page that cannot read events is a 500", async () => {
    expectNotFound(await read(app.request(`/events/${randomUUID()}`)), "default");
    const unknown = await read(app.request("/no-such-page"));
    expectNotFound(unknown, "default");
    expect(unknown.html).toContain(errorText.notFoundMessage("/no-such-page"));
    expectFailed(await withoutTable("events", () => read(app.request(`/events/${randomUUID()}`))), "default", "events");
  });

  it("documentation: an inquiry that cannot be stored is a 500 beside the support menu", async () => {
    // The documentation pages read nothing by id, so their one way to fail is the inquiry form's action.
    const form = await (await app.request("/inquiry")).text();
    const validFrom = /name="from__confirm"[^>]*value="([^"]+)"/.exec(form)?.[1];
    expect(validFrom).toBeTruthy();
    const body = new URLSearchParams({ name__confirm: "", from__confirm: validFrom!, name: "山田 太郎", email: "taro@example.jp", category: "coins", body: "質問があります。" });
    const post = () => app.request("/inquiry", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
    expectFailed(await withoutTable("inquiries", () => read(post())), "documentation", "inquiries");
  });

  it("profile: an unknown person is a 404; a profile whose plan cannot be read is a 500", async () => {
    expectNotFound(await read(app.request(`/u/${randomUUID()}`)), "profile");
    expectNotFound(await read(member.page(`/u/${randomUUID()}/posts`)), "profile");
    expectFailed(await withoutTable("subscription_plans", () => read(app.request(`/u/${sellerId}`))), "profile", "subscription_plans");
  });

  it("settings: an unknown booking's review is a 404; booking management without its bookings is a 500", async () => {
    expectNotFound(await read(member.page(`/settings/ticket-management/${randomUUID()}/review`)), "settings");
    expectFailed(await withoutTable("bookings", () => read(member.page("/settings/ticket-management"))), "settings", "bookings");
  });

  it("store: the plan page that cannot read plans is a 500 inside the store's panel", async () => {
    // The store's pages are the member's own (no id to get wrong), so a failed read is their way to fail.
    expectFailed(await withoutTable("subscription_plans", () => read(member.page("/settings/store/subscription"))), "store", "subscription_plans");
  });
});
