import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { routes as authRoutes } from "../../../server/auth/api";
import { accountsRows } from "../../support/fuzz/rows/accounts";
import { chatRows } from "../../support/fuzz/rows/chat";
import { commerceRows } from "../../support/fuzz/rows/commerce";
import { deskRows } from "../../support/fuzz/rows/desk";
import { deskMoneyRows } from "../../support/fuzz/rows/desk-money";
import { socialRows } from "../../support/fuzz/rows/social";

/** A new route joins the fuzz table (test/support/fuzz/rows/): the built server's route list and the auth server's route table say which exist. */
describe("the fuzz table covers every route", () => {
  it("has a row for every /api route and method, every route module with an action, and every /auth/v1 endpoint", async () => {
    const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
    const rows = [...accountsRows, ...chatRows, ...commerceRows, ...deskRows, ...socialRows, ...deskMoneyRows];
    const covered = new Set(rows.map((row) => `${row.method} ${row.route}`));
    const missing: string[] = [];
    for (const [id, route] of Object.entries(build.routes)) {
      const module = route.module as { action?: unknown; loader?: unknown };
      const api = id.startsWith("routes/api.");
      if (module.action && !rows.some((row) => row.route === id && row.method !== "GET")) missing.push(`${id}: its action`);
      if (api && module.loader && !covered.has(`GET ${id}`)) missing.push(`${id}: GET`);
    }
    // The local auth server's endpoints are the routes of its table (server/auth/api.ts).
    const endpoints = authRoutes.map(({ method, path: pathname }) => `${method} auth:${method} ${pathname}`);
    expect(endpoints.length).toBeGreaterThan(0);
    for (const endpoint of endpoints) if (!covered.has(endpoint)) missing.push(endpoint);
    expect(missing, "add a row to the table in test/support/fuzz/rows/").toEqual([]);
  });
});
