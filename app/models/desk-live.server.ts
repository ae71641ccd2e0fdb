import type { AuthUser } from "~/infra/auth/session";
import type { Database } from "~/infra/db/tables";
import type { Realtime } from "~/infra/realtime";
import { DESK_PAGES, DESK_REPORTS_CHANNEL, DESK_REPORTS_EVENT, rolesAllow } from "~/lib/constants/desk";
import { log } from "~/infra/logger.server";
import { countOpenReportTargets } from "./moderation-queue.server";
import { readRoles, type RoleStore } from "./operators.server";

/**
 * The desk's live count of open reports (ADR 071). A socket joins the desk's channel when it connects only if its
 * session is at aal2 and the auth server (not the token) says the account decides reports; a report filed or decided,
 * in this process or any other, then sends the new count to that channel alone. A gamer's socket never joins it, so
 * never hears it.
 */

/** The desk channels of a socket's user: the reports' one for the report roles at aal2, else none. */
export async function deskChannelsOf(db: Database, { store, user }: { store: RoleStore | null; user: AuthUser }): Promise<string[]> {
  if (!store || user.aal !== "aal2") return [];
  const roles = await readRoles(db, { store, userId: user.id });
  return rolesAllow(roles, DESK_PAGES.reports.roles) ? [DESK_REPORTS_CHANNEL] : [];
}

/**
 * What each server process does when the open reports change (the database's `reports_changed` notice, whoever made
 * the change: a gamer's report, the desk, `npm run moderation` in a shell): reads the count and tells the operators'
 * sockets of this process. Notices arriving while a count is read make one more count, not one each. Never fails:
 * a count is not worth an error, and the next notice or page load tells the truth.
 */
export function openReportsAnnouncer({ db, realtime }: { db: Database; realtime: Realtime }): () => void {
  let reading = false;
  let again = false;
  const announce = async () => {
    reading = true;
    do {
      again = false;
      try {
        const openReports = await countOpenReportTargets({ db });
        realtime.toDesk?.(DESK_REPORTS_CHANNEL, DESK_REPORTS_EVENT, { openReports });
      } catch (error) {
        log.warn({ err: error }, "desk: could not announce the open reports' count");
      }
    } while (again);
    reading = false;
  };
  return () => {
    if (!realtime.toDesk) return;
    if (reading) again = true;
    else void announce();
  };
}
