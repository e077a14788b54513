import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction, type AuditEntry } from "@lease/contracts";
import { useState } from "react";
import { Link } from "react-router-dom";
import { ADMIN_KEYS, fetchAuditLog, findLeaseRequest } from "../api";
import {
  Button,
  Field,
  LoadError,
  LoadingText,
  Panel,
  Select,
  LIST_HEAD,
  Table,
  TableCell,
  TableRow,
} from "../../components/ui";
import { auditDetailText, leadTargetOf } from "../lib/audit-entry";
import { formatAmsterdamDateTime } from "../lib/format";
import { leadHref, OPENS_TAB } from "../lib/lead-link";
import { leaseListTitle } from "../lib/lease-status";

const PAGE = 50;
const AUDIT_HEAD = ["Wanneer", "Wie", "Wat", "Waarop"] as const;

/** The moment an Amsterdam day (YYYY-MM-DD) begins, as an ISO instant; undefined when not a day. */
function amsterdamDayStart(day: string, addDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const utcMidnight = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + addDays);
  // Amsterdam's clock at that UTC midnight reads 01:00 or 02:00: the offset of that day's start.
  const hour = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Amsterdam",
    hour: "2-digit",
    hourCycle: "h23",
  }).format(new Date(utcMidnight));
  return new Date(utcMidnight - Number(hour) * 3600_000).toISOString();
}

/**
 * "Logboek": who did what when (sign-ins, admin accounts, lease requests, inbox, settings, e-mails
 * sent), filtered by action, admin, target and period.
 */
export function AuditLogTab() {
  const [action, setAction] = useState<AuditAction | "">("");
  const [actor, setActor] = useState("");
  const [target, setTarget] = useState("");
  const [fromDay, setFromDay] = useState("");
  const [toDay, setToDay] = useState("");
  const filter = {
    action,
    actor: actor.trim(),
    target: target.trim(),
    from: amsterdamDayStart(fromDay),
    until: amsterdamDayStart(toDay, 1),
  };
  const { until, ...query } = filter;
  const log = useInfiniteQuery({
    queryKey: [...ADMIN_KEYS.auditLog, filter],
    queryFn: ({ pageParam }) => fetchAuditLog({ ...query, before: pageParam ?? until, limit: PAGE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.items.length === PAGE ? last.items[PAGE - 1]!.at : undefined),
    staleTime: 0,
  });
  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Panel title="Logboek">
      <p className="mb-4 text-sm text-gray-700">
        Wie wat wanneer deed: inloggen, wijzigingen aan beheerders en eigen accounts, statuswijzigingen en
        verwijderde aanvragen, verwijderde e-mails, gewijzigde instellingen en verstuurde e-mails. Twee jaar
        bewaard.
      </p>
      <div className="mb-4 flex flex-wrap gap-4">
        <Field look="admin" id="logboek-actie" label="Actie">
          <Select
            id="logboek-actie"
            value={action}
            onChange={setAction}
            options={AUDIT_ACTIONS.map((value) => ({ value, label: AUDIT_ACTION_LABELS[value] }))}
          >
            <option value="">Alle acties</option>
          </Select>
        </Field>
        <Field look="admin" id="logboek-beheerder" label="Beheerder">
          {(control) => (
            <input
              {...control}
              value={actor}
              maxLength={100}
              placeholder="Gebruikersnaam"
              onChange={(event) => setActor(event.target.value)}
            />
          )}
        </Field>
        <Field look="admin" id="logboek-doel" label="Waarop">
          {(control) => (
            <input
              {...control}
              value={target}
              maxLength={200}
              placeholder="Gebruikersnaam of ID"
              onChange={(event) => setTarget(event.target.value)}
            />
          )}
        </Field>
        <Field look="admin" id="logboek-vanaf" label="Vanaf">
          {(control) => (
            <input
              {...control}
              type="date"
              value={fromDay}
              onChange={(event) => setFromDay(event.target.value)}
            />
          )}
        </Field>
        <Field look="admin" id="logboek-tot" label="Tot en met">
          {(control) => (
            <input
              {...control}
              type="date"
              value={toDay}
              onChange={(event) => setToDay(event.target.value)}
            />
          )}
        </Field>
      </div>
      {log.isError && !log.data ? (
        <LoadError query={log} fallback="Het logboek kon niet worden geladen." />
      ) : !log.data ? (
        <LoadingText />
      ) : items.length === 0 ? (
        <p className="py-6 text-center text-gray-600">Geen vermeldingen.</p>
      ) : (
        <Table className="min-w-full text-left text-sm" head={AUDIT_HEAD} {...LIST_HEAD}>
          {items.map((entry) => (
            <TableRow key={entry.id} className="border-b border-gray-100" data-testid="logboek-regel">
              <TableCell label={AUDIT_HEAD[0]} className="py-2 pr-4 whitespace-nowrap text-gray-700">
                {formatAmsterdamDateTime(entry.at)}
              </TableCell>
              <TableCell label={AUDIT_HEAD[1]} className="py-2 pr-4 font-medium text-gray-900">
                {entry.actor}
              </TableCell>
              <TableCell label={AUDIT_HEAD[2]} className="py-2 pr-4">
                {AUDIT_ACTION_LABELS[entry.action]}
                {auditDetailText(entry) && <span className="text-gray-600"> ({auditDetailText(entry)})</span>}
              </TableCell>
              <TableCell label={AUDIT_HEAD[3]} className="py-2 text-gray-700">
                <Target entry={entry} />
              </TableCell>
            </TableRow>
          ))}
        </Table>
      )}
      {log.hasNextPage && (
        <Button
          variant="secondary"
          className="mt-4"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          Meer laden
        </Button>
      )}
    </Panel>
  );
}

/**
 * "Waarop": a lease request as a link that opens it, named as the list names it, while it still
 * exists (asked of the leads service, once per request); its id stays beside it, for the filter.
 */
function Target({ entry }: { entry: AuditEntry }) {
  const lead = leadTargetOf(entry);
  const found = useQuery({
    queryKey: [...ADMIN_KEYS.leaseRequests, "logboek", lead?.id],
    queryFn: () => findLeaseRequest(lead!.id),
    enabled: lead !== null && !lead.deleted,
    staleTime: 60_000,
  });
  const id = <span className="block font-mono text-xs break-all text-gray-600">{entry.target}</span>;
  if (!lead) return entry.target ? <span className="font-mono text-xs break-all">{entry.target}</span> : null;
  if (found.data)
    return (
      <>
        <Link className="text-primary-strong underline" to={leadHref(lead.id)} state={OPENS_TAB}>
          Aanvraag van {leaseListTitle(found.data)}
        </Link>
        {id}
      </>
    );
  const gone = lead.deleted || (found.isSuccess && found.data === null);
  return (
    <>
      {gone && <span className="text-sm">Aanvraag bestaat niet meer</span>}
      {id}
    </>
  );
}
