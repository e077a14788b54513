import { randomUUID } from "node:crypto";
import net from "node:net";
import type {
  AttributionJobData,
  ContactBody,
  JobName,
  JobSource,
  CreateLeaseRequestBody,
  CreateLeaseRequestResponse,
  LeaseRequest,
  LeaseRequestExportQuery,
  LeaseRequestListQuery,
  LeaseRequestListResponse,
  UpdateLeaseStatusBody,
} from "@lease/contracts";
import { hasControlChars } from "@lease/contracts";
import { HttpError, notFound } from "@lease/platform";
import {
  toLeaseRequest,
  type LeaseRequestRow,
  type LeaseRequestsRepository,
  type OutboxJobs,
} from "../repositories/lease-requests";
import type { OwnersRepository } from "../repositories/owners";
import type { ResponseSettingsDomain } from "./response-settings";
import { responseDueAt } from "./working-hours";
import { leaseRequestsCsv } from "./csv";
import { moveBackRefusal, nextStage, type LeadStage } from "./lead-stages";

export const EXPORT_LIMIT = 50_000;
/** The visitor's address is kept for the ad platforms at most this long (the privacy page says so). */
export const CLIENT_IP_RETENTION_DAYS = 7;
const NOT_FOUND_MESSAGE = "Lease aanvraag niet gevonden";

/**
 * Outbox rows for a new lead or contact message: the mailer logs it in the inbox and notifies the
 * company (one job), and tracking counts it as a conversion of the visit that sent it (and answers
 * with its attribution).
 */
function leadJobs(source: JobSource, sessionId: string | undefined, marketing = false): OutboxJobs {
  const jobNames: JobName[] = ["lead.received", "tracking.conversion"];
  // With the page's marketing consent the ad platforms hear of the lead (conversions service).
  if (marketing) jobNames.push("conversions.send");
  return { source, jobNames, sessionId: sessionId ?? null };
}

const FILTER_LABELS: Record<keyof LeaseRequestExportQuery, string> = {
  owner: "eigenaar",
  q: "zoekterm",
  status: "status",
  followUp: "opvolgen",
  channel: "kanaal",
  campaign: "campagne",
};

/** "2 aanvragen (filter: zoekterm, status)": the audit detail of an export. */
export function exportDetail(rows: number, filter: LeaseRequestExportQuery): string {
  const fields = (Object.keys(FILTER_LABELS) as (keyof LeaseRequestExportQuery)[])
    .filter((key) => filter[key] !== undefined && filter[key] !== "")
    .map((key) => FILTER_LABELS[key]);
  const count = `${rows} ${rows === 1 ? "aanvraag" : "aanvragen"}`;
  return fields.length > 0 ? `${count} (filter: ${fields.join(", ")})` : count;
}

/** A User-Agent kept for the platforms: bounded, without control characters. */
const USER_AGENT_MAX = 512;

/**
 * What a quote request keeps for the ad platforms. Only the page decides consent: without its
 * `marketingConsent: true` nothing is kept (no click id, event id, user agent or page), whatever
 * else the request carries. The event id is the page's (its pixel Lead event uses it) or a new one.
 */
export function marketingOf(body: CreateLeaseRequestBody, userAgent: string | undefined, clientIp?: string) {
  if (body.marketingConsent !== true) return { marketingConsent: false as const };
  const ids = body.clickIds;
  const kept = ids && Object.entries(ids).some(([key, value]) => key !== "clickedAt" && value !== undefined);
  const agent = userAgent && !hasControlChars(userAgent) ? userAgent.slice(0, USER_AGENT_MAX) : undefined;
  return {
    marketingConsent: true as const,
    clickIds: kept ? ids : null,
    eventId: body.eventId ?? randomUUID(),
    userAgent: agent || null,
    pageUrl: body.pageUrl ? pageWithoutQuery(body.pageUrl) : null,
    fbp: body.fbp ?? null,
    clientIp: clientIp && net.isIP(clientIp) ? clientIp : null,
  };
}

/** The page's address without query or fragment (which may carry a visitor's data). */
function pageWithoutQuery(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

function eventIdOf(marketing: { eventId?: string }): { eventId?: string } {
  return marketing.eventId ? { eventId: marketing.eventId } : {};
}

export const emailKey = (email: string) => email.trim().toLowerCase();
export const phoneKey = (phone: string) => phone.replace(/\D/g, "");

/** The list's owner filter as the repository takes it: "me" is the signed-in admin's id. */
function ownerFilter(owner: string | undefined, me: string | undefined): string | undefined {
  return owner === "me" ? (me ?? "none") : owner;
}

export function leaseRequestsDomain(
  repo: LeaseRequestsRepository,
  onStored: () => void,
  deps: { owners: OwnersRepository; settings: ResponseSettingsDomain },
) {
  /** Rows as the API answers them, with their owners' names. */
  async function present(rows: LeaseRequestRow[]): Promise<LeaseRequest[]> {
    const owners = await deps.owners.owners(rows.map((r) => r.ownerId));
    return rows.map((row) => toLeaseRequest(row, owners));
  }
  const presentOne = async (row: LeaseRequestRow) => (await present([row]))[0]!;

  /** When a lead arriving now is to be answered, by the promise for its kind. */
  async function dueNow(kind: "quote" | "contact"): Promise<Date> {
    const { settings, calendar } = await deps.settings.active();
    return kind === "quote"
      ? responseDueAt(calendar, new Date(), settings.quoteMinutes, settings.quoteBasis)
      : responseDueAt(calendar, new Date(), settings.contactMinutes, settings.contactBasis);
  }

  return {
    /**
     * A filled honeypot gets the normal answer (a fresh id) and nothing is stored. With the page's
     * marketing consent the answer carries the event id the pixel's Lead event is to use, and the
     * visitor's address is kept for the ad platforms until the arrival is sent (at most 7 days).
     */
    async create(
      body: CreateLeaseRequestBody,
      requestId?: string,
      userAgent?: string,
      clientIp?: string,
    ): Promise<CreateLeaseRequestResponse> {
      const { clientIp: address, ...marketing } = marketingOf(body, userAgent, clientIp);
      if (body.website?.trim()) return { id: randomUUID(), ...eventIdOf(marketing) };
      const row = await repo.createWithOutbox(
        {
          carUrl: body.carUrl,
          contactNumber: body.contactNumber,
          email: body.email,
          companyName: body.companyName ?? null,
          leaseTerm: body.leaseTerm ?? null,
          message: body.message ?? null,
          emailKey: emailKey(body.email),
          phoneKey: phoneKey(body.contactNumber),
          responseDueAt: await dueNow("quote"),
          ...marketing,
        },
        leadJobs("lease_request", body.sessionId, marketing.marketingConsent),
        requestId,
        address ?? null,
      );
      onStored();
      return { id: row.id, ...eventIdOf(marketing) };
    },

    async createContact(body: ContactBody, requestId?: string): Promise<{ id: string }> {
      if (body.website?.trim()) return { id: randomUUID() };
      const row = await repo.createContactWithOutbox(
        {
          name: body.name,
          email: body.email,
          phone: body.phone ?? null,
          message: body.message,
          responseDueAt: await dueNow("contact"),
        },
        leadJobs("contact_form", body.sessionId),
        requestId,
      );
      onStored();
      return { id: row.id };
    },

    /** `me`: the signed-in admin's id (owner=me). */
    async list(query: LeaseRequestListQuery, me?: string): Promise<LeaseRequestListResponse> {
      const filter = { ...query, owner: ownerFilter(query.owner, me) };
      const { items, total, counts } = await repo.list(filter, query.page, query.pageSize, query.sort);
      return { items: await present(items), total, page: query.page, pageSize: query.pageSize, counts };
    },

    /**
     * The CSV of the requests the filter selects (at most EXPORT_LIMIT), audited before it is
     * answered: who, how many rows and which filter fields (never their values: `q` may be an
     * address). `by`: the admin's username.
     */
    async exportCsv(filter: LeaseRequestExportQuery, by: string, me?: string): Promise<string> {
      const rows = await repo.exportRows({ ...filter, owner: ownerFilter(filter.owner, me) }, EXPORT_LIMIT);
      await repo.recordExport(by, exportDetail(rows.length, filter));
      onStored();
      const owners = await deps.owners.owners(rows.map((r) => r.ownerId));
      return leaseRequestsCsv(
        rows.map((row) => ({
          ...toLeaseRequest(row, owners, { e164: false }),
          statusSince: (row.statusSince ?? row.createdAt).toISOString(),
        })),
      );
    },

    async get(id: string): Promise<LeaseRequest> {
      const row = await repo.findById(id);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      return presentOne(row);
    },

    /** Reassigns the lead by hand (`by`: the admin's username; audited, on the timeline). */
    async reassign(id: string, ownerId: string, by: string): Promise<LeaseRequest> {
      const result = await deps.owners.reassign(id, ownerId, by);
      if (result === undefined) throw notFound(NOT_FOUND_MESSAGE);
      if (result === "inactive")
        throw new HttpError(
          409,
          "owner_inactive",
          "Deze beheerder is uitgeschakeld of bestaat niet meer; kies een actieve beheerder.",
        );
      if (result.changed) onStored();
      return this.get(id);
    },

    /**
     * Tracking's answer for a lead (leads.attribution); a lead deleted since is no error. Answers
     * whether the lead is still there.
     */
    async setAttribution(data: AttributionJobData): Promise<boolean> {
      return repo.setAttribution(data.source, data.sourceId, data.attribution);
    },

    /** What the conversions service sends a lead's events with; 404 when it is gone. */
    async conversionData(id: string) {
      const row = await repo.findById(id);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      const clientIp = row.marketingConsent ? await repo.clientIpOf(id, CLIENT_IP_RETENTION_DAYS) : null;
      return {
        id: row.id,
        marketingConsent: row.marketingConsent,
        email: row.email,
        phone: row.contactNumber,
        clickIds: row.clickIds ?? null,
        userAgent: row.userAgent,
        pageUrl: row.pageUrl,
        fbp: row.fbp,
        clientIp,
        createdAt: row.createdAt.toISOString(),
      };
    },

    async getContact(id: string) {
      const row = await repo.findContactById(id);
      if (!row) throw notFound("Bericht niet gevonden");
      return { ...row, createdAt: row.createdAt.toISOString() };
    },

    /**
     * `by`: the admin's username, recorded with a status that changes. From a stage back to one of
     * the first three statuses only as a confirmed "Fase terugzetten" (409 otherwise), audited as such.
     */
    async updateStatus(id: string, body: UpdateLeaseStatusBody, by: string): Promise<LeaseRequest> {
      const movedBack = "moveBackFrom" in body && body.moveBackFrom !== undefined;
      const next = (before: LeadStage) => {
        const refusal = moveBackRefusal(before.status, body);
        // Thrown inside the transaction, on the locked row: nothing is written.
        if (refusal) throw new HttpError(409, refusal.code, refusal.message);
        return nextStage(before, body);
      };
      const { calendar } = await deps.settings.active();
      const row = await repo.updateStatus(id, next, body.isRead ?? true, by, movedBack, calendar);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      onStored(); // a status change queues an audit entry (and a stage a tracking job)
      return presentOne(row);
    },

    /** `by`: the admin's username, for the audit log. */
    async setFollowUp(id: string, followUpOn: string | null, by: string): Promise<LeaseRequest> {
      const row = await repo.setFollowUp(id, followUpOn, by);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      onStored(); // a changed day queues an audit entry
      return presentOne(row);
    },

    followUpsDue: () => repo.followUpsDue(),

    /** The outbox relay publishes what was just written (a retry's jobs). */
    nudge: onStored,

    /** `by`: the admin's username, for the audit log. */
    async delete(id: string, by: string): Promise<void> {
      if (!(await repo.delete(id, by))) throw notFound(NOT_FOUND_MESSAGE);
      onStored();
    },
  };
}
export type LeaseRequestsDomain = ReturnType<typeof leaseRequestsDomain>;
