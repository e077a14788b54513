import { z } from "zod";
import { IsoDateTime } from "../entities/common";
import { LeadAttribution } from "../entities/lease-request";
import { AUDIT_ACTOR_MAX, AUDIT_DETAIL_MAX, AUDIT_TARGET_MAX, AuditAction } from "../http/audit-log";
import { SessionId } from "../http/tracking";
import { QUEUES, type QueueName } from "./queues";

// Job data holds ids only: BullMQ keeps job data in Redis in clear text (and in its failed-job
// history), so personal data stays in Postgres and the handler loads it by id. Delivery is at least
// once, so every handler must be idempotent for the same ids.

export const JobSource = z.enum(["lease_request", "contact_form"]);
export type JobSource = z.infer<typeof JobSource>;

export const LeadReceivedJobData = z
  .object({ source: JobSource, sourceId: z.uuid() })
  .describe(
    "A lease request or contact message was stored: write its inbox entry and e-mail the company about it (one read of it)",
  );
export type LeadReceivedJobData = z.infer<typeof LeadReceivedJobData>;

/** Superseded by lead.received; handled while jobs queued before it may still wait in Redis. */
export const InboxLogJobData = z
  .object({ source: JobSource, sourceId: z.uuid() })
  .describe("Write the inbox entry for a stored lease request or contact message");
export type InboxLogJobData = z.infer<typeof InboxLogJobData>;

/** Superseded by lead.received; handled while jobs queued before it may still wait in Redis. */
export const NotifyCompanyJobData = z
  .object({ source: JobSource, sourceId: z.uuid() })
  .describe("E-mail the company's own address about a new lease request or contact message");
export type NotifyCompanyJobData = z.infer<typeof NotifyCompanyJobData>;

export const SendMailJobData = z
  .object({ outgoingEmailId: z.uuid() })
  .describe("Send one stored outgoing e-mail through the mail provider");
export type SendMailJobData = z.infer<typeof SendMailJobData>;

export const ConversionJobData = z
  .object({
    source: JobSource,
    sourceId: z.uuid(),
    sessionId: SessionId.nullable().describe(
      "The visitor session the form was sent from (analytics consent only); null: counted, unattributed",
    ),
    at: IsoDateTime.describe("When the lead arrived"),
  })
  .describe("Count a stored lease request or contact message as a conversion of its visit");
export type ConversionJobData = z.infer<typeof ConversionJobData>;

// The attribution is no personal data (where the visit came from, the site's own pages), so it
// travels in the job itself.
export const AttributionJobData = z
  .object({ source: JobSource, sourceId: z.uuid(), attribution: LeadAttribution })
  .describe("Store the attribution of the visit that sent a lease request or contact message");
export type AttributionJobData = z.infer<typeof AttributionJobData>;

// An admin's action in another service, for the gateway's audit log: ids and field names only
// (never a lead's name or e-mail address, never a settings value). `eventId` is the audit row's id,
// so a job delivered twice records one row.
export const AuditRecordJobData = z
  .object({
    eventId: z.uuid(),
    at: IsoDateTime.describe("When it happened"),
    actor: z.string().min(1).max(AUDIT_ACTOR_MAX).describe("The signed-in admin's username"),
    action: AuditAction,
    target: z.string().max(AUDIT_TARGET_MAX).nullable(),
    detail: z.string().max(AUDIT_DETAIL_MAX).nullable(),
  })
  .describe("Record one entry in the gateway's audit log");
export type AuditRecordJobData = z.infer<typeof AuditRecordJobData>;

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  queue: QueueName;
  schema: S;
  attempts: number;
  backoff: { type: "exponential"; delay: number };
  /** Wait this long before the first attempt (ms). */
  delay?: number;
}

export const JOBS = {
  "lead.received": {
    queue: QUEUES.mail,
    schema: LeadReceivedJobData,
    attempts: 10,
    backoff: { type: "exponential", delay: 2_000 },
  },
  "inbox.log": {
    queue: QUEUES.mail,
    schema: InboxLogJobData,
    attempts: 10,
    backoff: { type: "exponential", delay: 1_000 },
  },
  "mail.notify-company": {
    queue: QUEUES.mail,
    schema: NotifyCompanyJobData,
    attempts: 8,
    backoff: { type: "exponential", delay: 5_000 },
  },
  "mail.send": {
    queue: QUEUES.mail,
    schema: SendMailJobData,
    attempts: 8,
    backoff: { type: "exponential", delay: 5_000 },
  },
  "tracking.conversion": {
    queue: QUEUES.tracking,
    schema: ConversionJobData,
    // The visit's last page views may still wait in the visit stream (flushed every second): the
    // first attempt waits 2 s, and a session not written yet is tried again (2, 4, 8, 16 s ...).
    delay: 2_000,
    attempts: 6,
    backoff: { type: "exponential", delay: 2_000 },
  },
  "leads.attribution": {
    queue: QUEUES.leads,
    schema: AttributionJobData,
    attempts: 10,
    backoff: { type: "exponential", delay: 1_000 },
  },
  "audit.record": {
    queue: QUEUES.audit,
    schema: AuditRecordJobData,
    attempts: 20,
    backoff: { type: "exponential", delay: 1_000 },
  },
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof JOBS;
export type JobData<N extends JobName> = z.infer<(typeof JOBS)[N]["schema"]>;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];
