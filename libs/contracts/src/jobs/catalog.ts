import { z } from "zod";
import { IsoDateTime } from "../entities/common";
import { LeadAttribution, LeaseStatus } from "../entities/lease-request";
import { AUDIT_ACTOR_MAX, AUDIT_DETAIL_MAX, AUDIT_TARGET_MAX, AuditAction } from "../http/audit-log";
import { SessionId } from "../http/tracking";
import { ConversionEvent, ConversionPlatform, ConversionStatus, MatchKey } from "../http/conversions";
import { IsoWeek } from "../http/weekly-summary";
import { QUEUES, type QueueName } from "./queues";
import { JobSource } from "./source";

// Job data holds ids only: BullMQ keeps job data in Redis in clear text (and in its failed-job
// history), so personal data stays in Postgres and the handler loads it by id. Delivery is at least
// once, so every handler must be idempotent for the same ids.

export { JobSource };

export const LeadReceivedJobData = z
  .object({ source: JobSource, sourceId: z.uuid() })
  .describe(
    "A lease request or contact message was stored: write its inbox entry and e-mail the company about it (one read of it)",
  );
export type LeadReceivedJobData = z.infer<typeof LeadReceivedJobData>;

// A lead passed its response deadline without a response: the leads service claimed it (once,
// whichever replica) and the mailer e-mails its owner if they chose so ("Mijn account").
export const LeadOverdueJobData = z
  .object({
    source: JobSource,
    sourceId: z.uuid(),
    ownerId: z.uuid().nullable().describe("null: the lead has no owner (nobody to e-mail)"),
    dueAt: IsoDateTime.describe("The deadline it passed"),
  })
  .describe("E-mail a late lead's owner about it, if they chose that e-mail");
export type LeadOverdueJobData = z.infer<typeof LeadOverdueJobData>;

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
  .object({
    source: JobSource,
    sourceId: z.uuid(),
    attribution: LeadAttribution.nullable().describe(
      "null: the form's session had no page view to attribute it to (the lead has none, for good)",
    ),
  })
  .describe("Store the attribution of the visit that sent a lease request or contact message");
export type AttributionJobData = z.infer<typeof AttributionJobData>;

// A lead's stage as the funnel counts it: amounts are no personal data, so they travel in the job.
export const StageJobData = z
  .object({
    source: z.literal("lease_request"),
    sourceId: z.uuid(),
    seq: z
      .number()
      .int()
      .min(1)
      .describe("The lead's stage change count: only a newer one replaces what is known"),
    status: LeaseStatus,
    offered: z.boolean().describe("An offer was sent (offerte, getekend, or lost after an offer)"),
    signed: z.boolean().describe("A contract was signed (getekend)"),
    commissionCents: z.number().int().min(0).describe("The commission of the signed contract, 0 otherwise"),
  })
  .describe("A lease request's stage changed: count its offer, contract and commission for its campaign");
export type StageJobData = z.infer<typeof StageJobData>;

// A lead's event for the ad platforms: ids, the event's time and value (no personal data; the
// conversions service reads the lead's e-mail, phone and click ids from leads by id).
export const ConversionSendJobData = z
  .object({
    leadId: z.uuid(),
    event: ConversionEvent,
    eventId: z
      .uuid()
      .describe("The event's id, the platforms' event_id (the lead's: the pixel's Lead event id)"),
    at: IsoDateTime.describe("When it happened"),
    valueCents: z.number().int().min(0).nullable().describe("getekend: the commission; null otherwise"),
    platforms: z
      .array(ConversionPlatform)
      .optional()
      .describe("Only these platforms (a retry from the panel); absent: every one switched on"),
  })
  .describe("Send one event of a lead (with marketing consent) to each ad platform switched on");
export type ConversionSendJobData = z.infer<typeof ConversionSendJobData>;

export const ConversionOutcomeJobData = z
  .object({
    leadId: z.uuid(),
    platform: ConversionPlatform,
    event: ConversionEvent,
    status: ConversionStatus,
    at: IsoDateTime,
    error: z.string().max(1000).nullable(),
    matchKeys: z.array(MatchKey).default([]).describe("The match keys the event carried"),
    settled: z
      .boolean()
      .default(false)
      .describe("Every platform switched on has now taken this event: the visitor's address may go"),
  })
  .describe("How sending a lead's event to a platform went: kept with the lead for its detail");
export type ConversionOutcomeJobData = z.infer<typeof ConversionOutcomeJobData>;

// An e-mail of a lead's conversation changed in the mailer: a reply arrived, an e-mail to the lead
// was sent, or SendGrid told its fate. Ids only: the mailer's worker reads the e-mail by id and
// tells leads (PUT /internal/lease-requests/{id}/emails/{emailId}), retried until leads has it.
export const MailActivityJobData = z
  .object({
    leaseRequestId: z.uuid(),
    emailId: z.uuid().describe("The e-mail's inbox or sent-mail entry in the mailer"),
    kind: z.enum(["reply", "sent", "delivery"]),
  })
  .describe("An e-mail of a lead changed: tell leads, which keeps it on the lead's timeline");
export type MailActivityJobData = z.infer<typeof MailActivityJobData>;

// A contact message was answered: the e-mail "Beantwoorden" wrote to its sender from its inbox entry
// was sent. The mailer's worker tells leads (PUT /internal/contact-messages/{id}/first-response),
// retried until leads has it; leads keeps the earliest.
export const ContactAnsweredJobData = z
  .object({
    contactMessageId: z.uuid(),
    at: IsoDateTime.describe("When the answer was sent"),
  })
  .describe("A contact message's sender was answered by e-mail: its first response, if none came before");
export type ContactAnsweredJobData = z.infer<typeof ContactAnsweredJobData>;

// An admin as leads needs to know them (owners of leads): the gateway tells each change with the
// admin's whole state, so the newest revision is all leads keeps. A username is no lead's data.
export const StaffJobData = z
  .object({
    adminId: z.uuid(),
    username: z.string().min(1).max(AUDIT_ACTOR_MAX),
    active: z.boolean().describe("Neither disabled nor removed: may own leads"),
    removed: z.boolean(),
    takesNewLeads: z.boolean(),
    revision: z.number().int().min(1).describe("Orders the states of one admin: an older one is ignored"),
    // The admin's own notices ("Mijn account"). The address is the admin's work address for the
    // panel's notices, never a customer's; absent in jobs from before it existed.
    notifyEmail: z.email().max(254).nullable().default(null),
    overdueEmail: z.boolean().default(false).describe("Wants an e-mail when their lead is late"),
    weeklySummary: z.boolean().default(false).describe("Wants the weekly summary by e-mail"),
  })
  .describe("An admin was created, changed, disabled, enabled or removed: leads keeps who may own leads");
export type StaffJobData = z.infer<typeof StaffJobData>;

// The weekly summary: a job scheduler in Redis queues this job on Monday 08:00 Amsterdam time (one
// job per run, whichever replicas upserted the scheduler); the leads worker that takes it records
// one row per (admin, week) for every admin who chose the summary, each with its mail job in the
// same transaction, so a job run twice queues no second e-mail.
export const WeeklySummaryPlanJobData = z
  .object({
    week: IsoWeek.optional().describe("The week to sum up; absent: the last whole week before now"),
  })
  .describe("Queue the weekly summary e-mail of every admin who chose it, once per admin and week");
export type WeeklySummaryPlanJobData = z.infer<typeof WeeklySummaryPlanJobData>;

export const WeeklySummaryJobData = z
  .object({ adminId: z.uuid(), week: IsoWeek })
  .describe("E-mail one admin the weekly summary of this week (once: keyed by admin and week)");
export type WeeklySummaryJobData = z.infer<typeof WeeklySummaryJobData>;

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

/**
 * Every job in the catalog carries data (a lead, an e-mail, an audit entry, a conversion), so none
 * gives up within minutes: each retries with an exponential backoff from its own base delay, each
 * wait capped at JOB_BACKOFF_CAP_MS, for at least JOB_RETRY_MS in all (a day: an outage of Postgres,
 * a service or the mail provider over a night is waited out). A job that fails even then stays in
 * its queue's failed set (counted in `bullmq_jobs{state="failed"}`, alert LeaseJobsFailed) until
 * someone retries it (`npm run admin -- jobs retry`, infra/RUNBOOK.md).
 */
export const JOB_BACKOFF_CAP_MS = 10 * 60_000;
export const JOB_RETRY_MS = 24 * 3600_000;
/** The backoff type of the catalog's jobs; the workers (libs/platform createWorker) implement it. */
export const CAPPED_BACKOFF = "capped-exponential";

/** The wait before the next try after `attemptsMade` failed attempts: base·2^(n-1), at most the cap. */
export function cappedBackoffMs(attemptsMade: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(attemptsMade - 1, 0), JOB_BACKOFF_CAP_MS);
}

/** The attempts whose waits in between add up to at least JOB_RETRY_MS. */
export function attemptsForRetryPeriod(baseMs: number): number {
  let waited = 0;
  let attempts = 1;
  while (waited < JOB_RETRY_MS) waited += cappedBackoffMs(attempts++, baseMs);
  return attempts;
}

const retried = (baseMs: number): Pick<JobDefinition, "attempts" | "backoff"> => ({
  attempts: attemptsForRetryPeriod(baseMs),
  backoff: { type: CAPPED_BACKOFF, delay: baseMs },
});

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  queue: QueueName;
  schema: S;
  attempts: number;
  backoff: { type: typeof CAPPED_BACKOFF; delay: number };
  /** Wait this long before the first attempt (ms). */
  delay?: number;
}

export const JOBS = {
  "lead.received": { queue: QUEUES.mail, schema: LeadReceivedJobData, ...retried(2_000) },
  "inbox.log": { queue: QUEUES.mail, schema: InboxLogJobData, ...retried(1_000) },
  "mail.notify-company": { queue: QUEUES.mail, schema: NotifyCompanyJobData, ...retried(5_000) },
  "mail.send": { queue: QUEUES.mail, schema: SendMailJobData, ...retried(5_000) },
  "tracking.conversion": {
    queue: QUEUES.tracking,
    schema: ConversionJobData,
    // The visit's last page views may still wait in the visit stream (flushed every second): the
    // first attempt waits 2 s, and a session not written yet is tried again (2, 4, 8, 16 s ...;
    // the handler waits for the visit only for its first attempts, CONVERSION_VISIT_WAIT_ATTEMPTS).
    delay: 2_000,
    ...retried(2_000),
  },
  // Carries data: retried for hours like the others, failures stay visible.
  "tracking.stage": { queue: QUEUES.tracking, schema: StageJobData, ...retried(2_000) },
  "leads.attribution": { queue: QUEUES.leads, schema: AttributionJobData, ...retried(1_000) },
  "audit.record": { queue: QUEUES.audit, schema: AuditRecordJobData, ...retried(1_000) },
  // A platform down for hours is waited out: the conversion is sent when it is back.
  "conversions.send": { queue: QUEUES.conversions, schema: ConversionSendJobData, ...retried(5_000) },
  "leads.conversion-outcome": { queue: QUEUES.leads, schema: ConversionOutcomeJobData, ...retried(1_000) },
  "mail.lead-activity": { queue: QUEUES.mail, schema: MailActivityJobData, ...retried(1_000) },
  "mail.contact-answered": { queue: QUEUES.mail, schema: ContactAnsweredJobData, ...retried(1_000) },
  "leads.staff": { queue: QUEUES.leads, schema: StaffJobData, ...retried(1_000) },
  "mail.lead-overdue": { queue: QUEUES.mail, schema: LeadOverdueJobData, ...retried(5_000) },
  "leads.weekly-summary": { queue: QUEUES.leads, schema: WeeklySummaryPlanJobData, ...retried(5_000) },
  // SendGrid or leads down for hours is waited out: the e-mail goes when they are back.
  "mail.weekly-summary": { queue: QUEUES.mail, schema: WeeklySummaryJobData, ...retried(5_000) },
} as const satisfies Record<string, JobDefinition>;

/**
 * A conversion waits for its visit's page views (still in the visit stream) during its first
 * attempts only, about a minute (2 + 2 + 4 + 8 + 16 + 32 s); later attempts take what is written
 * (a visit never written, e.g. beyond its budget, leaves the lead unattributed).
 */
export const CONVERSION_VISIT_WAIT_ATTEMPTS = 6;

export type JobName = keyof typeof JOBS;
export type JobData<N extends JobName> = z.infer<(typeof JOBS)[N]["schema"]>;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];
