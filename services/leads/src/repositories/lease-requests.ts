import { and, count, desc, eq, getTableColumns, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import { centsToEuros, LEASE_STATUSES } from "@lease/contracts";
import type {
  AnalyticsChannel,
  AttributionStatus,
  AuditRecordJobData,
  ConversionSendJobData,
  FirstResponseKind,
  LeadOwner,
  LeadResponseFields,
  JobSource,
  LeadAttribution,
  LeaseRequest,
  LeaseStatus,
  StageJobData,
} from "@lease/contracts";
import {
  auditEvent,
  currentTraceparent,
  phoneE164,
  queueAuditEvents,
  type Database,
  type Pool,
} from "@lease/platform";
import { randomUUID } from "node:crypto";
import {
  contactMessages,
  conversionClientIps,
  conversionEvents,
  leaseRequests,
  outbox,
  statusChanges,
} from "../db/schema";
import { funnelOf, isStage, stageAuditDetail, stageChanged, type LeadStage } from "../domain/lead-stages";
import { ASSIGN_CTES } from "./owners";
import { markFirstResponse } from "./responses";
import type { Calendar } from "../domain/working-hours";

/** Statuses that say the customer was answered: entering one is a first response. */
const ANSWERED_STATUSES = new Set<string>(["gereageerd", "offerte", "getekend"]);

export type LeaseRequestRow = typeof leaseRequests.$inferSelect;
export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type NewLeaseRequest = Omit<
  typeof leaseRequests.$inferInsert,
  "id" | "duplicateOf" | "createdAt" | "attribution" | "attributionStatus" | "ownerId"
>;
export type NewContactMessage = Omit<
  typeof contactMessages.$inferInsert,
  "id" | "createdAt" | "attribution" | "attributionStatus" | "ownerId"
>;
/**
 * The jobs to queue for a new lead or message; each outbox row's payload is {source, sourceId},
 * the conversion job's also {sessionId, at} (CONVERSION_JOB).
 */
export interface OutboxJobs {
  source: string;
  jobNames: string[];
  /** The visitor session the form was sent from, for the conversion job (null: none sent). */
  sessionId: string | null;
}
export interface ListFilter {
  q?: string;
  status?: LeaseStatus;
  channel?: AnalyticsChannel;
  campaign?: string;
  /** vandaag: to follow up today or earlier. */
  followUp?: "vandaag";
  /** An admin's id, or "none": nobody's. */
  owner?: string;
}

/** The outbox job whose payload also carries the form's session id and arrival time. */
export const CONVERSION_JOB = "tracking.conversion";
/** A new lead's attribution status, in SQL: pending when its form sent a session id, else none to find. */
const ATTRIBUTION_STATUS_SQL = (sessionId: string) =>
  `CASE WHEN ${sessionId}::text IS NULL THEN 'no_consent' ELSE 'pending' END`;
/** An outbox row's payload, in SQL: `row` is the inserted lead or message (id, created_at). */
const PAYLOAD_SQL = (row: string, source: string, sessionId: string) => `
  CASE WHEN j.name = '${CONVERSION_JOB}'
       THEN jsonb_build_object('source', ${source}::text, 'sourceId', ${row}.id, 'sessionId', ${sessionId}::text,
              'at', to_char(${row}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
       WHEN j.name = 'lead.received'
       THEN jsonb_build_object('source', ${source}::text, 'sourceId', ${row}.id,
              'owner', (SELECT jsonb_build_object('id', admin_id, 'username', username) FROM claimed))
       ELSE jsonb_build_object('source', ${source}::text, 'sourceId', ${row}.id) END`;

/** The outbox job that sends a lead's events to the ad platforms (marketing consent only). */
export const CONVERSIONS_SEND_JOB = "conversions.send";
/** A new lead's conversions.send payload (ConversionSendJobData), else the other jobs' (PAYLOAD_SQL). */
const LEAD_PAYLOAD_SQL = (source: string, sessionId: string) => `
  CASE WHEN j.name = '${CONVERSIONS_SEND_JOB}'
       THEN jsonb_build_object('leadId', lead.id, 'event', 'lead', 'eventId', lead.event_id,
              'at', to_char(lead.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
              'valueCents', NULL)
       ELSE ${PAYLOAD_SQL("lead", source, sessionId)} END`;

/** The row's status and stage fields. */
export function stageOf(row: LeaseRequestRow): LeadStage {
  return {
    status: row.status as LeaseStatus,
    monthlyAmountCents: row.monthlyAmountCents,
    commissionCents: row.commissionCents,
    contractTerm: row.contractTerm,
    lostReason: row.lostReason,
    lostNote: row.lostNote,
  };
}

/** The row's owner and first response against its deadline (`now`: for overdue). */
export function responseFieldsOf(
  row: Pick<LeaseRequestRow, "ownerId" | "responseDueAt" | "firstResponseAt" | "firstResponseKind">,
  owners: ReadonlyMap<string, LeadOwner>,
  now = Date.now(),
): LeadResponseFields {
  return {
    owner: row.ownerId ? (owners.get(row.ownerId) ?? null) : null,
    responseDueAt: row.responseDueAt?.toISOString() ?? null,
    firstResponseAt: row.firstResponseAt?.toISOString() ?? null,
    firstResponseKind: (row.firstResponseKind as FirstResponseKind | null) ?? null,
    overdue: row.firstResponseAt === null && row.responseDueAt !== null && row.responseDueAt.getTime() < now,
  };
}

/**
 * The answer for a row, with its owner's name from `owners`. `e164`: with the phone as the ad
 * platforms get it, for staff (libphonenumber takes some 50 µs a number: fine for a page of the
 * list, left out of a 50,000-row export).
 */
export function toLeaseRequest(
  row: LeaseRequestRow,
  owners: ReadonlyMap<string, LeadOwner> = new Map(),
  { e164 = true } = {},
): LeaseRequest {
  return {
    ...responseFieldsOf(row, owners),
    id: row.id,
    carUrl: row.carUrl,
    contactNumber: row.contactNumber,
    contactNumberE164: e164 ? phoneE164(row.contactNumber) : null,
    email: row.email,
    companyName: row.companyName,
    leaseTerm: row.leaseTerm,
    message: row.message,
    status: row.status as LeaseStatus,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
    duplicateOf: row.duplicateOf,
    attribution: row.attribution ?? null,
    attributionStatus: row.attributionStatus as AttributionStatus,
    followUpOn: row.followUpOn,
    monthlyAmount: centsToEuros(row.monthlyAmountCents),
    commission: centsToEuros(row.commissionCents),
    contractTerm: row.contractTerm,
    lostReason: row.lostReason as LeaseRequest["lostReason"],
    lostNote: row.lostNote,
    marketingConsent: row.marketingConsent,
    conversions: [],
    emailUndeliverable: row.emailUndeliverableAt
      ? { at: row.emailUndeliverableAt.toISOString(), reason: row.emailUndeliverableReason }
      : null,
  };
}

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** An audit entry for the gateway's log, queued through the outbox in the caller's transaction. */
export async function queueAudit(tx: Tx, event: AuditRecordJobData): Promise<void> {
  await queueAuditEvents(tx, outbox, [event]);
}

/** The request's row, locked until the transaction ends; undefined when it does not exist. */
export async function lockRequest(tx: Tx, id: string): Promise<LeaseRequestRow | undefined> {
  const [row] = await tx.select().from(leaseRequests).where(eq(leaseRequests.id, id)).for("update");
  return row;
}

async function updateRequest(
  tx: Tx,
  id: string,
  set: Partial<typeof leaseRequests.$inferInsert>,
): Promise<LeaseRequestRow | undefined> {
  const [row] = await tx.update(leaseRequests).set(set).where(eq(leaseRequests.id, id)).returning();
  return row;
}

const isConversionStage = (status: string): status is "offerte" | "getekend" =>
  status === "offerte" || status === "getekend";

/**
 * Queues a lead's event for the ad platforms (outbox, in the caller's transaction) and keeps it, so
 * a retry from the panel can send the same event (same event_id) again.
 */
export async function queueConversion(tx: Tx, job: ConversionSendJobData): Promise<void> {
  if (job.event !== "lead") {
    await tx
      .insert(conversionEvents)
      .values({
        leaseRequestId: job.leadId,
        event: job.event,
        eventId: job.eventId,
        at: new Date(job.at),
        valueCents: job.valueCents,
      })
      .onConflictDoUpdate({
        target: [conversionEvents.leaseRequestId, conversionEvents.event],
        set: { eventId: job.eventId, at: new Date(job.at), valueCents: job.valueCents },
      });
  }
  await tx.insert(outbox).values({
    jobName: CONVERSIONS_SEND_JOB,
    payload: job,
    traceContext: currentTraceparent() ?? null,
  });
}

/** Whether the lead's event was queued for the ad platforms before (conversion_events keeps it). */
async function reportedBefore(tx: Tx, id: string, event: "offerte" | "getekend"): Promise<boolean> {
  const rows = await tx
    .select({ event: conversionEvents.event })
    .from(conversionEvents)
    .where(and(eq(conversionEvents.leaseRequestId, id), eq(conversionEvents.event, event)));
  return rows.length > 0;
}

/** Waiting for a first response: open, with a deadline, not answered (the partial index's rows). */
const waitingSql = sql`(${leaseRequests.firstResponseAt} IS NULL AND ${leaseRequests.responseDueAt} IS NOT NULL
  AND ${leaseRequests.status} IN ('nieuw', 'bekeken', 'gereageerd', 'offerte'))`;
const overdueSql = sql`(${waitingSql} AND ${leaseRequests.responseDueAt} < now())`;

/** Today in Amsterdam, the site's day, as Postgres sees it. */
const amsterdamToday = sql`(now() AT TIME ZONE 'Europe/Amsterdam')::date`;
/** To follow up today or earlier (overdue included). */
const followUpDue = sql`${leaseRequests.followUpOn} <= ${amsterdamToday}`;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The requests each status badge shows: red "Nieuw" is nieuw and not opened; yellow
 * "Bekeken" is bekeken, or nieuw but opened; any other status (gereageerd, the stages of the road
 * to a contract) has a badge of its own. The counters and the status filter go by the badge, so
 * they never contradict what the list shows.
 */
function withBadge(status: LeaseStatus): SQL {
  if (status === "nieuw") return sql`(${leaseRequests.status} = 'nieuw' AND NOT ${leaseRequests.isRead})`;
  if (status === "bekeken")
    return sql`(${leaseRequests.status} = 'bekeken' OR (${leaseRequests.status} = 'nieuw' AND ${leaseRequests.isRead}))`;
  return sql`(${leaseRequests.status} = ${status})`;
}

/** How many requests carry each badge: one per request, so together they are the total. */
const badgeCounts = Object.fromEntries(
  LEASE_STATUSES.map((status) => [
    status,
    sql<number>`count(*) filter (where ${withBadge(status)})`.mapWith(Number),
  ]),
) as Record<LeaseStatus, SQL<number>>;

function filterWhere(filter: ListFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (filter.status) parts.push(withBadge(filter.status));
  if (filter.channel) parts.push(sql`${leaseRequests.attribution}->>'channel' = ${filter.channel}`);
  if (filter.campaign) parts.push(sql`${leaseRequests.attribution}->>'campaign' = ${filter.campaign}`);
  if (filter.followUp === "vandaag") parts.push(followUpDue);
  if (filter.owner === "none") parts.push(isNull(leaseRequests.ownerId));
  else if (filter.owner) parts.push(eq(leaseRequests.ownerId, filter.owner));
  if (filter.q) {
    const like = `%${escapeLike(filter.q)}%`;
    const digits = filter.q.replace(/\D/g, "");
    const any = [
      ilike(leaseRequests.companyName, like),
      ilike(leaseRequests.email, like),
      ilike(leaseRequests.contactNumber, like),
      ilike(leaseRequests.message, like),
      ilike(leaseRequests.carUrl, like),
    ];
    if (digits.length >= 3) any.push(ilike(leaseRequests.phoneKey, `%${digits}%`));
    parts.push(or(...any)!);
  }
  return parts.length ? and(...parts) : undefined;
}

/**
 * The newest lead of the last 90 days with the same e-mail key or phone key, as two index lookups
 * (e-mail, phone). Written as "email_key = $1 OR phone_key = $2" the planner walks the created_at
 * index backwards through every recent lead instead, a cost that grows with the table (13 ms per
 * quote at 27,000 leads).
 */
export const NEWEST_DUPLICATE_SQL = (emailParam: string, phoneParam: string) => `
  SELECT id FROM (
    (SELECT id, created_at FROM leads.lease_requests
      WHERE email_key = ${emailParam} AND created_at > now() - interval '90 days'
      ORDER BY created_at DESC LIMIT 1)
    UNION ALL
    (SELECT id, created_at FROM leads.lease_requests
      WHERE phone_key = ${phoneParam} AND created_at > now() - interval '90 days'
      ORDER BY created_at DESC LIMIT 1)
  ) AS matches
  ORDER BY created_at DESC LIMIT 1`;

/** Lease requests and contact messages; each write carries its outbox rows in the same transaction. */
export function leaseRequestsRepository(db: Database, pool: Pool) {
  // Read once per new lead (the mailer fetches it for the inbox entry): prepared per connection.
  const byId = db
    .select()
    .from(leaseRequests)
    .where(eq(leaseRequests.id, sql.placeholder("id")))
    .limit(1)
    .prepare("leads.lease-request-by-id");
  return {
    /**
     * One statement (atomic on its own, one round trip): find the newest earlier request from the
     * same e-mail or phone in 90 days, insert the lead, insert one outbox row per job.
     */
    async createWithOutbox(
      input: NewLeaseRequest,
      jobs: OutboxJobs,
      requestId?: string,
      /** The visitor's address for the ad platforms (marketing consent only), in its own table. */
      clientIp: string | null = null,
    ): Promise<{ id: string }> {
      // Named: each connection parses and plans it once, not on every quote request (parse and
      // plan were two thirds of its Postgres time). The text is constant, as a name requires.
      const { rows } = await pool.query<{ id: string }>({
        name: "leads.create-lease-request",
        text: `WITH earlier AS (${NEWEST_DUPLICATE_SQL("$7", "$8")}), ${ASSIGN_CTES}, lead AS (
           INSERT INTO leads.lease_requests
             (car_url, contact_number, email, company_name, lease_term, message, email_key, phone_key, duplicate_of,
              attribution_status, marketing_consent, click_ids, event_id, user_agent, page_url,
              owner_id, response_due_at, fbp)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, (SELECT id FROM earlier), ${ATTRIBUTION_STATUS_SQL("$13")},
                   $14, $15::jsonb, $16::uuid, $17, $18, (SELECT admin_id FROM claimed), $19::timestamptz, $20)
           RETURNING id, created_at, event_id, owner_id
         ), owned AS (
           INSERT INTO leads.owner_changes (lease_request_id, owner_id, reason, changed_at)
           SELECT id, owner_id, 'rule', created_at FROM lead WHERE owner_id IS NOT NULL
         ), address AS (
           INSERT INTO leads.conversion_client_ips (lease_request_id, ip)
           SELECT id, $21::text FROM lead WHERE $21::text IS NOT NULL
         ), queued AS (
           INSERT INTO leads.outbox (job_name, payload, request_id, trace_context)
           SELECT j.name, ${LEAD_PAYLOAD_SQL("$9", "$13")}, $10, $12
             FROM lead, unnest($11::text[]) AS j(name)
         )
         SELECT id FROM lead`,
        values: [
          input.carUrl,
          input.contactNumber,
          input.email,
          input.companyName ?? null,
          input.leaseTerm ?? null,
          input.message ?? null,
          input.emailKey,
          input.phoneKey,
          jobs.source,
          requestId ?? null,
          jobs.jobNames,
          currentTraceparent() ?? null,
          jobs.sessionId,
          input.marketingConsent ?? false,
          input.clickIds ? JSON.stringify(input.clickIds) : null,
          input.eventId ?? null,
          input.userAgent ?? null,
          input.pageUrl ?? null,
          input.responseDueAt ?? null,
          input.fbp ?? null,
          clientIp,
        ],
      });
      if (!rows[0]) throw new Error("insert returned nothing");
      return rows[0];
    },

    async createContactWithOutbox(
      input: NewContactMessage,
      jobs: OutboxJobs,
      requestId?: string,
    ): Promise<{ id: string }> {
      const { rows } = await pool.query<{ id: string }>({
        name: "leads.create-contact-message",
        text: `WITH ${ASSIGN_CTES}, msg AS (
           INSERT INTO leads.contact_messages (name, email, phone, message, attribution_status, owner_id, response_due_at)
           VALUES ($1, $2, $3, $4, ${ATTRIBUTION_STATUS_SQL("$9")}, (SELECT admin_id FROM claimed), $10::timestamptz)
           RETURNING id, created_at
         ), queued AS (
           INSERT INTO leads.outbox (job_name, payload, request_id, trace_context)
           SELECT j.name, ${PAYLOAD_SQL("msg", "$5", "$9")}, $6, $8
             FROM msg, unnest($7::text[]) AS j(name)
         )
         SELECT id FROM msg`,
        values: [
          input.name,
          input.email,
          input.phone ?? null,
          input.message,
          jobs.source,
          requestId ?? null,
          jobs.jobNames,
          currentTraceparent() ?? null,
          jobs.sessionId,
          input.responseDueAt ?? null,
        ],
      });
      if (!rows[0]) throw new Error("insert returned nothing");
      return rows[0];
    },

    /**
     * Stores tracking's answer for a lead or message (a repeat overwrites it alike): its attribution,
     * or null when the session had no page view to attribute it to.
     */
    async setAttribution(
      source: JobSource,
      id: string,
      attribution: LeadAttribution | null,
    ): Promise<boolean> {
      const table = source === "lease_request" ? leaseRequests : contactMessages;
      const status: AttributionStatus = attribution ? "found" : "not_found";
      const rows = await db
        .update(table)
        .set({ attribution, attributionStatus: status })
        .where(eq(table.id, id))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    async list(filter: ListFilter, page: number, pageSize: number, sort: "newest" | "urgency" = "newest") {
      const where = filterWhere(filter);
      // Urgency: the waiting ones by deadline (the late first), then the rest newest first.
      const order =
        sort === "urgency"
          ? [
              sql`CASE WHEN ${waitingSql} THEN 0 ELSE 1 END`,
              sql`CASE WHEN ${waitingSql} THEN ${leaseRequests.responseDueAt} END ASC`,
              desc(leaseRequests.createdAt),
              desc(leaseRequests.id),
            ]
          : [desc(leaseRequests.createdAt), desc(leaseRequests.id)];
      const [items, [matching], [counts]] = await Promise.all([
        db
          .select()
          .from(leaseRequests)
          .where(where)
          .orderBy(...order)
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ n: count() }).from(leaseRequests).where(where),
        db
          .select({
            unread: sql<number>`count(*) filter (where not ${leaseRequests.isRead})`.mapWith(Number),
            ...badgeCounts,
            total: count(),
            followUpDue: sql<number>`count(*) filter (where ${followUpDue})`.mapWith(Number),
            waiting: sql<number>`count(*) filter (where ${waitingSql})`.mapWith(Number),
            overdue: sql<number>`count(*) filter (where ${overdueSql})`.mapWith(Number),
          })
          .from(leaseRequests),
      ]);
      return {
        items,
        total: matching?.n ?? 0,
        counts: counts ?? {
          unread: 0,
          ...(Object.fromEntries(LEASE_STATUSES.map((status) => [status, 0])) as Record<LeaseStatus, number>),
          total: 0,
          followUpDue: 0,
          waiting: 0,
          overdue: 0,
        },
      };
    },

    /** The rows of an export, each with the moment it reached its status (null: never changed). */
    async exportRows(
      filter: ListFilter,
      limit: number,
    ): Promise<(LeaseRequestRow & { statusSince: Date | null })[]> {
      return db
        .select({
          ...getTableColumns(leaseRequests),
          // The last change into the current status (an amount corrected within a stage is no new stage).
          // Spelled out: drizzle writes a select's own columns unqualified, which here would be s's.
          statusSince: sql<Date | null>`(SELECT max(s.changed_at) FROM leads.status_changes s
              WHERE s.lease_request_id = lease_requests.id AND s.to_status = lease_requests.status
                AND s.from_status IS DISTINCT FROM s.to_status)`.mapWith(leaseRequests.createdAt),
        })
        .from(leaseRequests)
        .where(filterWhere(filter))
        .orderBy(desc(leaseRequests.createdAt), desc(leaseRequests.id))
        .limit(limit);
    },

    /** Queues the audit entry of a CSV export (the outbox). */
    async recordExport(by: string, detail: string): Promise<void> {
      await db.transaction((tx) => queueAudit(tx, auditEvent(by, "lead.exported", null, detail)));
    },

    /** The visitor's address kept for the ad platforms, if it is younger than `days`. */
    async clientIpOf(id: string, days: number): Promise<string | null> {
      const [row] = await db
        .select({ ip: conversionClientIps.ip })
        .from(conversionClientIps)
        .where(
          and(
            eq(conversionClientIps.leaseRequestId, id),
            sql`${conversionClientIps.createdAt} > now() - make_interval(days => ${days})`,
          ),
        );
      return row?.ip ?? null;
    },

    async findById(id: string): Promise<LeaseRequestRow | undefined> {
      const [row] = await byId.execute({ id });
      return row;
    },

    async findContactById(id: string): Promise<ContactMessageRow | undefined> {
      const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
      return row;
    },

    /**
     * Sets status, stage fields and read flag; a change of status or stage is recorded with the admin
     * who made it (the lead's timeline), queued for the audit log and, when it concerns a stage
     * (offerte, getekend, verloren), announced to tracking (outbox), all in the same transaction.
     * Undefined when the request does not exist.
     */
    async updateStatus(
      id: string,
      next: (before: LeadStage) => LeadStage,
      isRead: boolean,
      changedBy: string,
      movedBack = false,
      calendar?: Calendar,
    ): Promise<LeaseRequestRow | undefined> {
      return db.transaction(async (tx) => {
        const before = await lockRequest(tx, id);
        if (!before) return undefined;
        const from = stageOf(before);
        const to = next(from);
        if (!stageChanged(from, to)) return updateRequest(tx, id, { isRead });
        // Gereageerd (or an offer or contract straight away) says the customer was answered.
        if (calendar && to.status !== from.status && ANSWERED_STATUSES.has(to.status))
          await markFirstResponse(tx, "lease_requests", id, new Date(), "status", calendar);
        const stageSeq = before.stageSeq + 1;
        const row = await updateRequest(tx, id, { ...to, isRead, stageSeq });
        await tx.insert(statusChanges).values({
          leaseRequestId: id,
          fromStatus: from.status,
          toStatus: to.status,
          changedBy,
          monthlyAmountCents: to.monthlyAmountCents,
          commissionCents: to.commissionCents,
          contractTerm: to.contractTerm,
          lostReason: to.lostReason,
          note: to.lostNote,
        });
        const action = movedBack ? "lead.stage_moved_back" : "lead.status_changed";
        await queueAudit(tx, auditEvent(changedBy, action, id, stageAuditDetail(from, to, movedBack)));
        if (isStage(from.status) || isStage(to.status)) {
          const payload: StageJobData = {
            source: "lease_request",
            sourceId: id,
            seq: stageSeq,
            status: to.status,
            ...funnelOf(to),
          };
          await tx.insert(outbox).values({
            jobName: "tracking.stage",
            payload,
            traceContext: currentTraceparent() ?? null,
          });
        }
        // Entering offerte or getekend is told to the ad platforms (marketing consent only), once per
        // lead: after a stage was moved back and entered again they already have it (a second
        // event would count the offer or contract twice there and in the Google Ads file).
        if (
          before.marketingConsent &&
          to.status !== from.status &&
          isConversionStage(to.status) &&
          !(await reportedBefore(tx, id, to.status))
        ) {
          await queueConversion(tx, {
            leadId: id,
            event: to.status,
            eventId: randomUUID(),
            at: new Date().toISOString(),
            valueCents: to.status === "getekend" ? to.commissionCents : null,
          });
        }
        return row;
      });
    },

    /**
     * Sets or clears "Opvolgen op"; a day that changes is queued for the audit log (outbox) in the
     * same transaction, with the new day or "gewist". Undefined when the request does not exist.
     */
    async setFollowUp(
      id: string,
      followUpOn: string | null,
      by: string,
    ): Promise<LeaseRequestRow | undefined> {
      return db.transaction(async (tx) => {
        const before = await lockRequest(tx, id);
        if (!before) return undefined;
        const row = await updateRequest(tx, id, { followUpOn });
        if (before.followUpOn !== followUpOn) {
          await queueAudit(tx, auditEvent(by, "lead.follow_up_changed", id, followUpOn ?? "gewist"));
        }
        return row;
      });
    },

    /** How many requests are to be followed up today or earlier. */
    async followUpsDue(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(leaseRequests).where(followUpDue);
      return row?.n ?? 0;
    },

    /** Deletes a request; the deletion is queued for the audit log (outbox) in the same transaction. */
    async delete(id: string, deletedBy: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .delete(leaseRequests)
          .where(eq(leaseRequests.id, id))
          .returning({ id: leaseRequests.id });
        if (rows.length === 0) return false;
        await queueAudit(tx, auditEvent(deletedBy, "lead.deleted", id));
        return true;
      });
    },
  };
}
export type LeaseRequestsRepository = ReturnType<typeof leaseRequestsRepository>;
