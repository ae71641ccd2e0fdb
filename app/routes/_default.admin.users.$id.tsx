import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { coinTransactionLabel } from "~/components/coin-labels";
import { DeskDecisionForm, type DecisionIntent } from "~/components/desk-decision-form";
import { postDecision } from "~/http/desk-decisions.server";
import { decisionLine, formatDateTime, personState, reportLine } from "~/http/desk-view.server";
import { deskNotFound, requireOperator } from "~/http/desk.server";
import { DESK_PAGES, rolesAllow, SANCTION_ROLES } from "~/lib/constants/desk";
import { formatNumber } from "~/lib/format";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/desk-meta";
import { parseParams } from "~/lib/params";
import { personDecisionSchema, userParamsSchema } from "~/lib/validation/desk";
import { getPerson, type PersonRecord } from "~/models/desk-people.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => deskMeta(data ? text.personTitle(data.person.displayName) : text.usersTitle);

async function personOf(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const { id } = parseParams(userParamsSchema, params, request);
  const record = await getPerson({ db: context.db, userId: id.toLowerCase() });
  if (!record) throw deskNotFound(request);
  return record;
}

/** The sanctions that apply to the person now. */
function intentsFor({ person }: PersonRecord, now = Date.now()): DecisionIntent[] {
  if (person.left) return [];
  const stopped = person.bannedAt !== null || (person.suspendedUntil !== null && person.suspendedUntil.getTime() > now);
  return [...(person.bannedAt ? [] : (["suspend", "ban"] as const)), ...(stopped ? (["lift"] as const) : [])];
}

/**
 * /admin/users/{id} (ADR 071): one member's record, read only, for every operator; the moderators and admins also
 * get the sanctions (suspend, ban, lift), the command line's own decisions.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { roles } = await requireOperator(request, context, DESK_PAGES.users.roles);
  const record = await personOf(request, context, params);
  const { person, balance } = record;
  // Put in words here, so the page's browser code carries no module of the gamers' pages (ADR 071).
  return {
    person: { id: person.id, displayName: person.displayName, email: person.email, joined: formatDateTime(person.createdAt), state: personState(person), offPlatformFlags: person.offPlatformFlags },
    balance: {
      total: text.coinUnit(formatNumber(balance.totalBalance)),
      breakdown: text.coinsBreakdown(formatNumber(balance.purchased), formatNumber(balance.earned)),
    },
    sanctions: record.sanctions.map(decisionLine),
    ledger: record.ledger.map((row) => ({
      id: row.id,
      line: `${formatDateTime(row.createdAt)} ${coinTransactionLabel(row.kind)} ${row.amount > 0 ? "+" : ""}${formatNumber(row.amount)}（${text.coinUnit(formatNumber(row.balanceAfter))}）`,
    })),
    listings: record.listings.map((listing) => ({
      id: listing.id,
      title: listing.title,
      detail: `${text.listingStatus[listing.status]}${listing.hidden ? `・${text.hidden}` : ""}・${text.coinUnit(formatNumber(listing.pricePerUnit))}`,
    })),
    bookings: record.bookings.map((booking) => ({
      id: booking.id,
      line: `${formatDateTime(booking.startsAt)} ${booking.title}（${text.bookingRole[booking.role]}・${text.bookingStatus[booking.status]}・${text.coinUnit(formatNumber(booking.totalPrice))}）`,
    })),
    reportsAgainst: record.reportsAgainst.map(reportLine),
    reportsBy: record.reportsBy.map(reportLine),
    intents: rolesAllow(roles, SANCTION_ROLES) ? intentsFor(record) : [],
    reportLinks: rolesAllow(roles, DESK_PAGES.reports.roles),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const desk = await requireOperator(request, context, SANCTION_ROLES);
  const record = await personOf(request, context, params);
  const { pathname } = new URL(request.url);
  return postDecision(request, context, { desk, schema: personDecisionSchema, target: null, ownerId: record.person.id, back: pathname });
}

const card = "rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200";

export default function DeskPerson() {
  const { person, balance, sanctions, ledger, listings, bookings, reportsAgainst, reportsBy, intents, reportLinks } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  return (
    <section aria-labelledby="person-title" className="space-y-5">
      <p className="text-sm">
        <Link to="/admin/users" className="text-brand-700 underline">
          {text.backToUsers}
        </Link>
      </p>
      <h1 id="person-title" className="text-2xl font-bold break-words">
        {text.personTitle(person.displayName)}
      </h1>
      <dl className={`${card} grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm`}>
        <dt className="font-semibold">{text.userId}</dt>
        <dd className="break-all font-mono">{person.id}</dd>
        <dt className="font-semibold">{text.email}</dt>
        <dd className="break-all">{person.email ?? text.noEmail}</dd>
        <dt className="font-semibold">{text.joined}</dt>
        <dd>{person.joined}</dd>
        <dt className="font-semibold">{text.status}</dt>
        <dd data-testid="person-state">{person.state}</dd>
        <dt className="font-semibold">{text.coins}</dt>
        <dd>
          {balance.total}（{balance.breakdown}）
        </dd>
        <dt className="font-semibold">{text.offPlatformLabel}</dt>
        <dd>{person.offPlatformFlags}</dd>
      </dl>
      {intents.length > 0 ? <DeskDecisionForm id="sanction" legend={text.sanctionTitle} intents={intents} refusal={refusal} /> : null}
      <Lines title={text.sanctions} lines={sanctions} />
      <Lines title={text.ledger} lines={ledger} />
      <div className={card}>
        <h2 className="font-bold">{text.listings}</h2>
        <Rows empty={listings.length === 0}>
          {listings.map((listing) => (
            <li key={listing.id} className="break-words">
              <Link to={`/tickets/${listing.id}`} className="text-brand-700 underline">
                {listing.title}
              </Link>{" "}
              {listing.detail}
            </li>
          ))}
        </Rows>
      </div>
      <Lines title={text.bookings} lines={bookings} />
      <ReportList title={text.reportsAgainst} reports={reportsAgainst} links={reportLinks} />
      <ReportList title={text.reportsBy} reports={reportsBy} links={reportLinks} />
    </section>
  );
}

function Rows({ empty, children }: { empty: boolean; children: React.ReactNode }) {
  return empty ? <p className="mt-1 text-sm text-slate-600">{text.none}</p> : <ul className="mt-2 space-y-1 text-sm">{children}</ul>;
}

function Lines({ title, lines }: { title: string; lines: Array<{ id: number | string; line: string }> }) {
  return (
    <div className={card}>
      <h2 className="font-bold">{title}</h2>
      <Rows empty={lines.length === 0}>
        {lines.map((row) => (
          <li key={row.id} className="break-words">
            {row.line}
          </li>
        ))}
      </Rows>
    </div>
  );
}

/** Reports by or against the person; their targets linked for the operators who may open the report pages. */
function ReportList({ title, reports, links }: { title: string; reports: Array<ReturnType<typeof reportLine>>; links: boolean }) {
  return (
    <div className={card}>
      <h2 className="font-bold">{title}</h2>
      <Rows empty={reports.length === 0}>
        {reports.map((report) => (
          <li key={report.id}>
            {links ? (
              <Link to={report.href} className="text-brand-700 underline">
                {report.targetLabel}
              </Link>
            ) : (
              report.targetLabel
            )}{" "}
            {report.detail}
          </li>
        ))}
      </Rows>
    </div>
  );
}
