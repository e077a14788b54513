import { randomUUID } from "node:crypto";
import type {
  AttributionJobData,
  ContactBody,
  JobName,
  JobSource,
  CreateLeaseRequestBody,
  LeaseRequest,
  LeaseRequestExportQuery,
  LeaseRequestListQuery,
  LeaseRequestListResponse,
  UpdateLeaseStatusBody,
} from "@lease/contracts";
import { notFound } from "@lease/platform";
import {
  toLeaseRequest,
  type LeaseRequestsRepository,
  type OutboxJobs,
} from "../repositories/lease-requests";
import { leaseRequestsCsv } from "./csv";
import { nextStage } from "./lead-stages";

export const EXPORT_LIMIT = 50_000;
const NOT_FOUND_MESSAGE = "Lease aanvraag niet gevonden";

/**
 * Outbox rows for a new lead or contact message: the mailer logs it in the inbox and notifies the
 * company (one job), and tracking counts it as a conversion of the visit that sent it (and answers
 * with its attribution).
 */
function leadJobs(source: JobSource, sessionId: string | undefined): OutboxJobs {
  const jobNames: JobName[] = ["lead.received", "tracking.conversion"];
  return { source, jobNames, sessionId: sessionId ?? null };
}

const FILTER_LABELS: Record<keyof LeaseRequestExportQuery, string> = {
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

export const emailKey = (email: string) => email.trim().toLowerCase();
export const phoneKey = (phone: string) => phone.replace(/\D/g, "");

export function leaseRequestsDomain(repo: LeaseRequestsRepository, onStored: () => void) {
  return {
    /** A filled honeypot gets the normal answer (a fresh id) and nothing is stored. */
    async create(body: CreateLeaseRequestBody, requestId?: string): Promise<{ id: string }> {
      if (body.website?.trim()) return { id: randomUUID() };
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
        },
        leadJobs("lease_request", body.sessionId),
        requestId,
      );
      onStored();
      return { id: row.id };
    },

    async createContact(body: ContactBody, requestId?: string): Promise<{ id: string }> {
      if (body.website?.trim()) return { id: randomUUID() };
      const row = await repo.createContactWithOutbox(
        { name: body.name, email: body.email, phone: body.phone ?? null, message: body.message },
        leadJobs("contact_form", body.sessionId),
        requestId,
      );
      onStored();
      return { id: row.id };
    },

    async list(query: LeaseRequestListQuery): Promise<LeaseRequestListResponse> {
      const { items, total, counts } = await repo.list(query, query.page, query.pageSize);
      return { items: items.map(toLeaseRequest), total, page: query.page, pageSize: query.pageSize, counts };
    },

    /**
     * The CSV of the requests the filter selects (at most EXPORT_LIMIT), audited before it is
     * answered: who, how many rows and which filter fields (never their values: `q` may be an
     * address). `by`: the admin's username.
     */
    async exportCsv(filter: LeaseRequestExportQuery, by: string): Promise<string> {
      const rows = await repo.exportRows(filter, EXPORT_LIMIT);
      await repo.recordExport(by, exportDetail(rows.length, filter));
      onStored();
      return leaseRequestsCsv(rows.map(toLeaseRequest));
    },

    async get(id: string): Promise<LeaseRequest> {
      const row = await repo.findById(id);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      return toLeaseRequest(row);
    },

    /**
     * Tracking's answer for a lead (leads.attribution); a lead deleted since is no error. Answers
     * whether the lead is still there.
     */
    async setAttribution(data: AttributionJobData): Promise<boolean> {
      return repo.setAttribution(data.source, data.sourceId, data.attribution);
    },

    async getContact(id: string) {
      const row = await repo.findContactById(id);
      if (!row) throw notFound("Bericht niet gevonden");
      return { ...row, createdAt: row.createdAt.toISOString() };
    },

    /** `by`: the admin's username, recorded with a status that changes. */
    async updateStatus(id: string, body: UpdateLeaseStatusBody, by: string): Promise<LeaseRequest> {
      const row = await repo.updateStatus(id, (before) => nextStage(before, body), body.isRead ?? true, by);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      onStored(); // a status change queues an audit entry (and a stage a tracking job)
      return toLeaseRequest(row);
    },

    /** `by`: the admin's username, for the audit log. */
    async setFollowUp(id: string, followUpOn: string | null, by: string): Promise<LeaseRequest> {
      const row = await repo.setFollowUp(id, followUpOn, by);
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      onStored(); // a changed day queues an audit entry
      return toLeaseRequest(row);
    },

    followUpsDue: () => repo.followUpsDue(),

    /** `by`: the admin's username, for the audit log. */
    async delete(id: string, by: string): Promise<void> {
      if (!(await repo.delete(id, by))) throw notFound(NOT_FOUND_MESSAGE);
      onStored();
    },
  };
}
export type LeaseRequestsDomain = ReturnType<typeof leaseRequestsDomain>;
