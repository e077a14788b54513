import type { AdminUser } from "@lease/contracts";
import type { ReactNode } from "react";
import { Badge, TableBody, TableCell, TableRow } from "../../components/ui";
import { formatAmsterdamDateTime } from "../lib/format";
import { TakesNewLeadsSwitch } from "./LeadRouting";

const TEAM_HEAD = [
  "Gebruikersnaam",
  "Status",
  "Tweestapsverificatie",
  "Laatst ingelogd",
  "Nieuwe aanvragen",
  "Acties",
] as const;

/**
 * The team: on a phone one card per admin with every field and button on screen, from md up a
 * table. `actionsFor` gives another admin's buttons (none for oneself, `self`).
 */
export function TeamMembers({
  users,
  self,
  actionsFor,
}: {
  users: readonly AdminUser[];
  self: string | undefined;
  actionsFor: (user: AdminUser) => ReactNode;
}) {
  const statusBadges = (user: AdminUser) => (
    <span className="inline-flex flex-wrap gap-1">
      <Badge tone={user.disabled ? "gray" : "green"}>{user.disabled ? "Uitgeschakeld" : "Actief"}</Badge>
      {user.mustChangePassword && <Badge tone="yellow">Eenmalig wachtwoord</Badge>}
    </span>
  );
  const lastLogin = (user: AdminUser) =>
    user.lastLoginAt ? formatAmsterdamDateTime(user.lastLoginAt) : "Nog nooit";
  return (
    <>
      {/* A phone: one card per admin, every field and button on screen. */}
      <ul className="space-y-3 md:hidden" aria-label="Beheerders">
        {users.map((user) => (
          <li
            key={user.id}
            className="rounded-card border border-gray-200 p-4 text-sm"
            data-testid="gebruiker-kaart"
          >
            <p className="font-semibold text-gray-900">
              {user.username}
              {user.username === self && <span className="ml-1 font-normal text-gray-600">(jij)</span>}
            </p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-gray-600">Status</dt>
              <dd>{statusBadges(user)}</dd>
              <dt className="text-gray-600">Tweestapsverificatie</dt>
              <dd>{user.totpEnabled ? "Aan" : "Uit"}</dd>
              <dt className="text-gray-600">Laatst ingelogd</dt>
              <dd className="text-gray-700">{lastLogin(user)}</dd>
              <dt className="text-gray-600">Nieuwe aanvragen</dt>
              <dd>
                <TakesNewLeadsSwitch user={user} />
              </dd>
            </dl>
            {user.username !== self && <div className="mt-3">{actionsFor(user)}</div>}
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table role="table" className="min-w-full text-left text-sm">
          {/* Shown from md up only (the cards stand in below), so no stacked head. */}
          <thead role="rowgroup" className="border-b border-gray-200 text-gray-600">
            <tr role="row">
              {TEAM_HEAD.map((column, index) => (
                <th
                  key={column}
                  role="columnheader"
                  scope="col"
                  className={`py-2 font-semibold ${index < 5 ? "pr-4" : ""}`}
                >
                  {index < 5 ? column : <span className="sr-only">{column}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.id} className="border-b border-gray-100" data-testid="gebruiker">
                <TableCell label={TEAM_HEAD[0]} className="py-2 pr-4 font-medium text-gray-900">
                  {user.username}
                  {user.username === self && <span className="ml-1 text-gray-600">(jij)</span>}
                </TableCell>
                <TableCell label={TEAM_HEAD[1]} className="py-2 pr-4">
                  {statusBadges(user)}
                </TableCell>
                <TableCell label={TEAM_HEAD[2]} className="py-2 pr-4">
                  {user.totpEnabled ? "Aan" : "Uit"}
                </TableCell>
                <TableCell label={TEAM_HEAD[3]} className="py-2 pr-4 text-gray-700">
                  {lastLogin(user)}
                </TableCell>
                <TableCell label={TEAM_HEAD[4]} className="py-2 pr-4">
                  <TakesNewLeadsSwitch user={user} />
                </TableCell>
                <TableCell label={TEAM_HEAD[5]} className="py-2">
                  {actionsFor(user)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </table>
      </div>
    </>
  );
}
