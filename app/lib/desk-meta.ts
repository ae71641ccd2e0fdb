import type { MetaDescriptor } from "@remix-run/node";
import { pageMeta } from "./meta";

/**
 * The meta of an operators' desk page (ADR 071): its title, and no search engine ever lists it. Apart from ./meta.ts,
 * which the shell carries to every page: what only the desk uses stays in the desk's files.
 */
export function deskMeta(page: string): MetaDescriptor[] {
  return [...pageMeta(page), { name: "robots", content: "noindex, nofollow" }];
}
