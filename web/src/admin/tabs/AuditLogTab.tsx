import { useInfiniteQuery } from "@tanstack/react-query";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction } from "@lease/contracts";
import { useState } from "react";
import { ADMIN_KEYS, fetchAuditLog } from "../api";
import { Button, LoadingText, Panel, TEXT_INPUT } from "../../components/ui";
import { formatAmsterdamDateTime } from "../lib/format";

const PAGE = 50;
const DETAILS: Record<string, string> = {
  password: "met wachtwoord",
  totp: "met wachtwoord en code",
  recovery: "met wachtwoord en herstelcode",
  new_password: "met eenmalig wachtwoord, daarna eigen wachtwoord gekozen",
};

/** "Logboek": who did what when (sign-ins, changes to admin accounts), filtered by action and admin. */
export function AuditLogTab() {
  const [action, setAction] = useState<AuditAction | "">("");
  const [actor, setActor] = useState("");
  const filter = { action, actor: actor.trim() };
  const log = useInfiniteQuery({
    queryKey: [...ADMIN_KEYS.auditLog, filter],
    queryFn: ({ pageParam }) => fetchAuditLog({ ...filter, before: pageParam, limit: PAGE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.items.length === PAGE ? last.items[PAGE - 1]!.at : undefined),
    staleTime: 0,
  });
  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Panel title="Logboek">
      <p className="mb-4 text-sm text-gray-700">
        Wie wat wanneer deed: inloggen en wijzigingen aan beheerders en eigen accounts. Twee jaar bewaard.
      </p>
      <div className="mb-4 flex flex-wrap gap-4">
        <div>
          <label htmlFor="logboek-actie" className="text-sm font-semibold text-gray-800">
            Actie
          </label>
          <select
            id="logboek-actie"
            className={TEXT_INPUT}
            value={action}
            onChange={(event) => setAction(event.target.value as AuditAction | "")}
          >
            <option value="">Alle acties</option>
            {AUDIT_ACTIONS.map((value) => (
              <option key={value} value={value}>
                {AUDIT_ACTION_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="logboek-beheerder" className="text-sm font-semibold text-gray-800">
            Beheerder
          </label>
          <input
            id="logboek-beheerder"
            className={TEXT_INPUT}
            value={actor}
            maxLength={100}
            placeholder="Gebruikersnaam"
            onChange={(event) => setActor(event.target.value)}
          />
        </div>
      </div>
      {!log.data ? (
        <LoadingText />
      ) : items.length === 0 ? (
        <p className="py-6 text-center text-gray-600">Geen vermeldingen.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="border-b border-gray-200 text-gray-600">
              <tr>
                <th className="py-2 pr-4 font-semibold">Wanneer</th>
                <th className="py-2 pr-4 font-semibold">Wie</th>
                <th className="py-2 pr-4 font-semibold">Wat</th>
                <th className="py-2 font-semibold">Waarop</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry.id} className="border-b border-gray-100" data-testid="logboek-regel">
                  <td className="py-2 pr-4 whitespace-nowrap text-gray-700">
                    {formatAmsterdamDateTime(entry.at)}
                  </td>
                  <td className="py-2 pr-4 font-medium text-gray-900">{entry.actor}</td>
                  <td className="py-2 pr-4">
                    {AUDIT_ACTION_LABELS[entry.action]}
                    {entry.detail && DETAILS[entry.detail] && (
                      <span className="text-gray-600"> ({DETAILS[entry.detail]})</span>
                    )}
                  </td>
                  <td className="py-2 text-gray-700">{entry.target ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
