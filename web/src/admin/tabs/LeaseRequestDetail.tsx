import { isSafeHttpUrl, type LeaseRequest } from "@lease/contracts";
import type { ReactNode, Ref } from "react";
import { Badge, Button, Panel } from "../../components/ui";
import { formatAmsterdamDateTime, formatLeaseTerm } from "../lib/format";
import { openComposeWindow } from "../lib/inbox";
import { leaseDetailTitle, leaseStatusBadge, statusActions } from "../lib/lease-status";
import { LeadAttribution } from "./LeadAttribution";
import { FollowUpField } from "./FollowUpField";
import { LeadTimeline } from "./LeadTimeline";
import { LeadStageForm } from "./LeadStageForm";
import { LeadConversions } from "./LeadConversions";
import { DuplicateNote } from "./DuplicateNote";
import { LeadResponse } from "./LeadResponse";

const ACTION_LABELS: Record<"bekeken" | "gereageerd", string> = {
  bekeken: "Markeer als Bekeken",
  gereageerd: "Markeer als Gereageerd",
};

export function LeaseRequestDetail({
  request,
  headingRef,
  busy,
  onStatus,
  onUpdated,
  onDelete,
}: {
  request: LeaseRequest | null;
  /** The title, which takes focus when a request is opened (tabIndex -1: not a Tab stop). */
  headingRef?: Ref<HTMLHeadingElement>;
  busy: boolean;
  onStatus: (status: "bekeken" | "gereageerd") => void;
  /** The request as a change (its stage) answered it. */
  onUpdated: (updated: LeaseRequest) => void;
  onDelete: () => void;
}) {
  if (!request) {
    return (
      <Panel>
        <p className="py-16 text-center text-gray-600">Selecteer een aanvraag om de details te bekijken</p>
      </Panel>
    );
  }
  const badge = leaseStatusBadge(request);
  return (
    <Panel>
      <div data-testid="lease-detail" className="space-y-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2
            ref={headingRef}
            tabIndex={-1}
            className="rounded-sm text-xl font-bold wrap-anywhere text-gray-900 outline-none focus-visible:ring-2 focus-visible:ring-primary/50"
          >
            {leaseDetailTitle(request)}
          </h2>
          <div className="flex gap-2">
            {request.duplicateOf && <Badge tone="blue">Mogelijk dubbel</Badge>}
            <Badge tone={badge.tone}>{badge.label}</Badge>
          </div>
        </div>
        <DuplicateNote request={request} />
        <dl className="grid gap-4 sm:grid-cols-2">
          <Detail label="E-mail">
            <a className="wrap-anywhere text-primary-strong underline" href={`mailto:${request.email}`}>
              {request.email}
            </a>
            {request.emailUndeliverable && (
              <span
                className="block text-sm font-medium text-red-800"
                data-testid="email-undeliverable-note"
                role="note"
              >
                Dit e-mailadres werkt niet (Onbestelbaar
                {request.emailUndeliverable.reason ? `: ${request.emailUndeliverable.reason}` : ""}); bel de
                klant.
              </span>
            )}
          </Detail>
          <Detail label="Telefoon">
            <a className="text-primary-strong underline" href={`tel:${telOf(request)}`}>
              {request.contactNumber}
            </a>
            <span className="block text-sm text-gray-600" data-testid="lead-phone-e164">
              {request.contactNumberE164
                ? `Internationaal: ${request.contactNumberE164}`
                : "Geen geldig telefoonnummer: niet aan advertentieplatforms doorgegeven"}
            </span>
          </Detail>
          {request.companyName && <Detail label="Bedrijf">{request.companyName}</Detail>}
          <Detail label="Looptijd">{formatLeaseTerm(request.leaseTerm)}</Detail>
          <Detail label="Auto URL" wide>
            {isSafeHttpUrl(request.carUrl) ? (
              <a
                className="wrap-anywhere text-primary-strong underline"
                href={request.carUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                {request.carUrl}
              </a>
            ) : (
              <span className="wrap-anywhere">{request.carUrl}</span>
            )}
          </Detail>
          {request.message && (
            <Detail label="Bericht" wide>
              <p className="whitespace-pre-wrap">{request.message}</p>
            </Detail>
          )}
          <Detail label="Ontvangen">{formatAmsterdamDateTime(request.createdAt)}</Detail>
        </dl>
        <LeadAttribution attribution={request.attribution} status={request.attributionStatus} />
        {/* The actions a notice must not cover (components/notice/placement.ts). */}
        <div className="flex flex-wrap gap-2 border-t border-gray-200 pt-4" data-notice-keep-clear>
          {statusActions(request).map((status) => (
            <Button key={status} variant="secondary" disabled={busy} onClick={() => onStatus(status)}>
              {ACTION_LABELS[status]}
            </Button>
          ))}
          <Button onClick={() => openComposeWindow({ requestId: request.id })}>E-mail Versturen</Button>
          <Button variant="danger" disabled={busy} onClick={onDelete}>
            Verwijderen
          </Button>
        </div>
        <LeadResponse
          key={`reactie-${request.id}`}
          request={request}
          tel={telOf(request)}
          onUpdated={onUpdated}
        />
        <LeadStageForm key={`fase-${request.id}`} request={request} onSaved={onUpdated} />
        <LeadConversions key={`conversies-${request.id}-${request.status}`} request={request} />
        <FollowUpField key={`opvolgen-${request.id}`} request={request} />
        <LeadTimeline key={request.id} request={request} />
      </div>
    </Panel>
  );
}

/** The number to dial: the normalised one when it is valid, else the digits as typed. */
const telOf = (request: LeaseRequest) =>
  request.contactNumberE164 ?? request.contactNumber.replace(/[^\d+]/g, "");

function Detail({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-sm font-medium text-gray-600">{label}</dt>
      <dd className="mt-1 text-gray-900">{children}</dd>
    </div>
  );
}
