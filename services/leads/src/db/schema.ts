import { sql } from "drizzle-orm";
import type { FormClickIds, LeadAttribution, LeadEmail, ResponseSettings } from "@lease/contracts";
import { outboxTable } from "@lease/platform/outbox-table";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  smallint,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

export const leads = pgSchema("leads");

/**
 * The admins as leads knows them (never read from the gateway's table): the gateway tells each
 * change by an event carrying the admin's whole state and a revision; the newest revision wins.
 * A removed admin's row stays (removed), so old leads still name their owner.
 */
export const staff = leads.table("staff", {
  adminId: uuid("admin_id").primaryKey(),
  username: text("username").notNull(),
  /** Neither disabled nor removed: may own leads. */
  active: boolean("active").notNull(),
  removed: boolean("removed").notNull().default(false),
  /** The admin's switch in "Gebruikers": gets new leads by the assignment rule. */
  takesNewLeads: boolean("takes_new_leads").notNull().default(true),
  /** Orders the gateway's events of one admin (they may arrive out of order). */
  revision: bigint("revision", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** Where the admin's own notices go (their work address, "Mijn account"); null: none. */
  notifyEmail: text("notify_email"),
  /** Wants an e-mail when one of their leads passes its deadline. */
  overdueEmail: boolean("overdue_email").notNull().default(false),
  /** Wants the weekly summary by e-mail. */
  weeklySummary: boolean("weekly_summary").notNull().default(false),
});

/**
 * The weekly summary e-mails queued: one row per admin and ISO week ("2026-W13"), written in the
 * transaction that queues the e-mail (outbox), so the weekly job run twice (two replicas, a retry,
 * a restart) queues each admin's e-mail of a week once. Admin ids only; a few rows a week.
 */
export const weeklySummaries = leads.table(
  "weekly_summaries",
  {
    adminId: uuid("admin_id")
      .notNull()
      .references(() => staff.adminId),
    week: text("week").notNull(),
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.week] })],
);

/**
 * Round-robin's turns: each new lead takes the next number, and the admin at that position (by
 * name) among those taking new leads. Two leads at once take two numbers, so two admins.
 */
export const assignmentTurn = leads.sequence("assignment_turn");

/** Owner and first response of a lead (lease request or contact message). */
function responseColumns() {
  return {
    /** The admin who answers it (leads.staff); null: nobody yet (manual assignment, no admin). */
    ownerId: uuid("owner_id").references((): AnyPgColumn => staff.adminId),
    /** When the promise runs out (computed at arrival from the response settings then in force). */
    responseDueAt: timestamp("response_due_at", { withTimezone: true }),
    /** The first e-mail sent to the customer, call that reached them, or status gereageerd. */
    firstResponseAt: timestamp("first_response_at", { withTimezone: true }),
    /** email, call or status: what the first response was. */
    firstResponseKind: text("first_response_kind"),
    /** Working minutes from arrival to the first response (the working hours then in force). */
    responseWorkingMinutes: integer("response_working_minutes"),
    /** When the passing of the deadline was announced to the owner (once). */
    overdueAnnouncedAt: timestamp("overdue_announced_at", { withTimezone: true }),
  };
}

export const leaseRequests = leads.table(
  "lease_requests",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    carUrl: text("car_url").notNull(),
    contactNumber: text("contact_number").notNull(),
    email: text("email").notNull(),
    companyName: text("company_name"),
    leaseTerm: integer("lease_term"),
    message: text("message"),
    status: text("status").notNull().default("nieuw"),
    isRead: boolean("is_read").notNull().default(false),
    /** Lower-cased e-mail and digits-only phone: what duplicate detection compares. */
    emailKey: text("email_key").notNull(),
    phoneKey: text("phone_key").notNull(),
    duplicateOf: uuid("duplicate_of").references((): AnyPgColumn => leaseRequests.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Where the visit that sent it came from, as tracking answered it (null: not known). */
    attribution: jsonb("attribution").$type<LeadAttribution>(),
    /** AttributionStatus: pending until tracking answers; set at insert and by that answer. */
    attributionStatus: text("attribution_status").notNull().default("unknown"),
    /** "Opvolgen op": the (Amsterdam) day staff mean to follow the request up; null when none. */
    followUpOn: date("follow_up_on", { mode: "string" }),
    // The road to a contract (offerte, getekend, verloren): amounts in whole cents, never floats.
    /** Euros a month of the offer or contract, in cents; kept when an offer is lost. */
    monthlyAmountCents: integer("monthly_amount_cents"),
    /** The broker's commission on a signed contract, in cents. */
    commissionCents: integer("commission_cents"),
    /** Months of the signed contract. */
    contractTerm: smallint("contract_term"),
    lostReason: text("lost_reason"),
    lostNote: text("lost_note"),
    /** Counts the stage changes: tracking keeps only the newest it heard (jobs may arrive out of order). */
    stageSeq: integer("stage_seq").notNull().default(0),
    // For the ad platforms' conversions, kept only when the page said the visitor gave marketing
    // consent (never inferred here); they go with the row (deletion, erasure, retention).
    marketingConsent: boolean("marketing_consent").notNull().default(false),
    /** The landing URL's click ids (and when the visitor clicked); null without marketing consent. */
    clickIds: jsonb("click_ids").$type<FormClickIds>(),
    /** Shared by the browser pixel's Lead event and the server's: each platform counts it once. */
    eventId: uuid("event_id"),
    /** The browser's User-Agent and the form's page, sent to the platforms with the event. */
    userAgent: text("user_agent"),
    pageUrl: text("page_url"),
    /** The Meta pixel's browser id (its _fbp cookie) as the form sent it: Meta's fbp match key. */
    fbp: text("fbp"),
    /** An e-mail to the address bounced or was dropped (the mailer said so): it does not work. */
    emailUndeliverableAt: timestamp("email_undeliverable_at", { withTimezone: true }),
    emailUndeliverableReason: text("email_undeliverable_reason"),
    ...responseColumns(),
    // What the response report groups and measures by, kept by PostgreSQL itself from the columns
    // above (stored generated columns): the report reads them from one covering index by arrival
    // (lease_requests_response_report_idx, migration 0014) instead of walking each lead's row.
    /** Clock minutes from arrival to the first response (rounded); null while unanswered. */
    responseClockMinutes: integer("response_clock_minutes").generatedAlwaysAs(
      sql`(round(extract(epoch FROM first_response_at - created_at) / 60))::integer`,
    ),
    /** The Monday of the Amsterdam (ISO) week it arrived in. */
    receivedWeek: date("received_week", { mode: "string" }).generatedAlwaysAs(
      sql`(date_trunc('week', created_at AT TIME ZONE 'Europe/Amsterdam'))::date`,
    ),
    /** The attribution's channel and utm_campaign (null: no known visit). */
    reportChannel: text("report_channel").generatedAlwaysAs(sql`attribution->>'channel'`),
    reportCampaign: text("report_campaign").generatedAlwaysAs(sql`attribution->>'campaign'`),
  },
  (t) => [
    index("lease_requests_created_at_idx").on(t.createdAt),
    index("lease_requests_follow_up_on_idx")
      .on(t.followUpOn)
      .where(sql`${t.followUpOn} IS NOT NULL`),
    index("lease_requests_email_key_idx").on(t.emailKey, t.createdAt),
    index("lease_requests_phone_key_idx").on(t.phoneKey, t.createdAt),
    // What deleting a lead looks up (duplicate_of is set null on its duplicates): without it every
    // deleted lead scanned the whole table (an erasure, the retention pass; 100,000 deleted at once
    // took over 18 minutes). Only the few duplicates are in it.
    index("lease_requests_duplicate_of_idx")
      .on(t.duplicateOf)
      .where(sql`${t.duplicateOf} IS NOT NULL`),
    // The Google Ads file reads only its own rows: consented leads with a Google click id, by arrival.
    index("lease_requests_google_click_idx")
      .on(t.createdAt)
      .where(sql`${t.marketingConsent} AND ${t.clickIds} ?| ARRAY['gclid', 'gbraid', 'wbraid']`),
    index("lease_requests_owner_idx").on(t.ownerId, t.createdAt),
    // The leads still waiting for a first response, by deadline: urgency, counters, the overdue scan.
    index("lease_requests_waiting_idx")
      .on(t.responseDueAt)
      .where(sql`${t.firstResponseAt} IS NULL`),
    // Not yet announced as late: the overdue scan's rows (a lead never answered leaves it once late).
    index("lease_requests_unannounced_idx")
      .on(t.responseDueAt)
      .where(sql`${t.firstResponseAt} IS NULL AND ${t.overdueAnnouncedAt} IS NULL`),
  ],
);

export const contactMessages = leads.table(
  "contact_messages",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    attribution: jsonb("attribution").$type<LeadAttribution>(),
    attributionStatus: text("attribution_status").notNull().default("unknown"),
    ...responseColumns(),
  },
  (t) => [
    // By arrival: the response report's weeks (and the retention pass).
    index("contact_messages_created_at_idx").on(t.createdAt),
    index("contact_messages_owner_idx").on(t.ownerId, t.createdAt),
    index("contact_messages_waiting_idx")
      .on(t.responseDueAt)
      .where(sql`${t.firstResponseAt} IS NULL`),
    // Not yet announced as late: the overdue scan's rows (a lead never answered leaves it once late).
    index("contact_messages_unannounced_idx")
      .on(t.responseDueAt)
      .where(sql`${t.firstResponseAt} IS NULL AND ${t.overdueAnnouncedAt} IS NULL`),
  ],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/**
 * The response report's figures of one Amsterdam week and kind, packed (domain/response-pack.ts):
 * one fixed-width record per lead with its day, owner, channel, campaign, first-response minutes
 * and deadline, so a report over two years reads ~105 rows instead of every lead. A week is rebuilt
 * from the leads while it has rows in response_report_stale; a week without leads has no row.
 */
export const responseReportWeeks = leads.table(
  "response_report_weeks",
  {
    kind: text("kind").notNull(),
    week: date("week", { mode: "string" }).notNull(),
    /** The records' owner and campaign indexes point into these. */
    owners: uuid("owners").array().notNull(),
    campaigns: text("campaigns").array().notNull(),
    records: bytea("records").notNull(),
    builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.week] })],
);

/**
 * Weeks whose packed figures are out of date: a trigger on the leads' tables adds a row in the
 * transaction of every change the report reads (arrival, owner, visit, deadline, first response,
 * deletion); a rebuild deletes the rows it saw (migration 0017).
 */
export const responseReportStale = leads.table(
  "response_report_stale",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind").notNull(),
    week: date("week", { mode: "string" }).notNull(),
  },
  (t) => [index("response_report_stale_week_idx").on(t.week)],
);

/** Transactional outbox: written in the same transaction as the lead (libs/platform outboxTable). */
export const outbox = outboxTable(leads);

/** A timeline row's lease request: the row goes with it. */
const leaseRequestRef = () =>
  uuid("lease_request_id")
    .notNull()
    .references(() => leaseRequests.id, { onDelete: "cascade" });

/** Every status change of a lease request, with the admin who made it (the lead's timeline). */
export const statusChanges = leads.table(
  "status_changes",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    leaseRequestId: leaseRequestRef(),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    // What the change set (offerte, getekend, verloren): amounts in cents, the reason and its note.
    monthlyAmountCents: integer("monthly_amount_cents"),
    commissionCents: integer("commission_cents"),
    contractTerm: smallint("contract_term"),
    lostReason: text("lost_reason"),
    note: text("note"),
    /** The admin's username. */
    changedBy: text("changed_by").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("status_changes_lease_request_idx").on(t.leaseRequestId, t.changedAt)],
);

/** Staff notes on a lease request: plain text; only the author may change or delete one. */
export const leadNotes = leads.table(
  "lead_notes",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    leaseRequestId: leaseRequestRef(),
    /** The author's username at the time (shown). */
    author: text("author").notNull(),
    /** The author's immutable admin id: only they may edit or delete (null: a note from before ids). */
    authorId: uuid("author_id"),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [index("lead_notes_lease_request_idx").on(t.leaseRequestId, t.createdAt)],
);

/**
 * A lead's events for the ad platforms (offerte, getekend; the lead's own event is its row's
 * event_id and created_at): what a retry from the panel sends again. Marketing consent only.
 */
export const conversionEvents = leads.table(
  "conversion_events",
  {
    leaseRequestId: leaseRequestRef(),
    event: text("event").notNull(),
    eventId: uuid("event_id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    valueCents: integer("value_cents"),
  },
  (t) => [primaryKey({ columns: [t.leaseRequestId, t.event] })],
);

/** How each event went per platform, as the conversions service reported it (the lead's detail). */
export const conversionDeliveries = leads.table(
  "conversion_deliveries",
  {
    leaseRequestId: leaseRequestRef(),
    platform: text("platform").notNull(),
    event: text("event").notNull(),
    /** sent, waiting or failed. */
    status: text("status").notNull(),
    error: text("error"),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** Which match keys the event carried (email, phone, click_id, fbp, ip, external_id, country). */
    matchKeys: text("match_keys")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [primaryKey({ columns: [t.leaseRequestId, t.platform, t.event] })],
);

/**
 * The visitor's address as the gateway saw it when the quote form was sent (marketing consent
 * only), for the ad platforms' match keys: kept only while the lead's arrival is still to be sent,
 * removed once every platform took it (the conversions service says so) or after
 * CLIENT_IP_RETENTION_DAYS. Never answered to staff, exported or logged; goes with the lead.
 */
export const conversionClientIps = leads.table(
  "conversion_client_ips",
  {
    leaseRequestId: leaseRequestRef().primaryKey(),
    ip: text("ip").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("conversion_client_ips_created_at_idx").on(t.createdAt)],
);

/**
 * The Google Ads offline conversion file (one row: `id` is always 1): the conversion actions' names
 * (null: the default) and its secret URL, kept only as the SHA-256 of the secret (never the secret).
 */
export const googleAdsFeed = leads.table(
  "google_ads_feed",
  {
    id: smallint("id").primaryKey().default(1),
    leadConversionName: text("lead_conversion_name"),
    offerteConversionName: text("offerte_conversion_name"),
    getekendConversionName: text("getekend_conversion_name"),
    /** Hex SHA-256 of the secret in the URL; null until a URL is made. */
    secretHash: text("secret_hash"),
    secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true }),
    /** When the current URL last answered the file (the panel shows that Google fetches it). */
    secretFetchedAt: timestamp("secret_fetched_at", { withTimezone: true }),
  },
  (t) => [check("google_ads_feed_one_row", sql`${t.id} = 1`)],
);

/**
 * A lead's conversation as the mailer told it (never read from the mailer's tables): each reply and
 * each e-mail sent to the lead, as its latest state (`revision` orders the states of one e-mail).
 */
export const leadEmails = leads.table(
  "lead_emails",
  {
    emailId: uuid("email_id").primaryKey(),
    leaseRequestId: uuid("lease_request_id")
      .notNull()
      .references(() => leaseRequests.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull(),
    revision: text("revision").notNull(),
    email: jsonb("email").$type<LeadEmail>().notNull(),
  },
  (t) => [index("lead_emails_lease_request_idx").on(t.leaseRequestId, t.at)],
);

/** The response settings (one row: `id` is always 1); no row: the defaults. */
export const responseSettings = leads.table(
  "response_settings",
  {
    id: smallint("id").primaryKey().default(1),
    settings: jsonb("settings").$type<ResponseSettings>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("response_settings_one_row", sql`${t.id} = 1`)],
);

/** Who owned a lease request when: "Toegewezen aan …" on its timeline. */
export const ownerChanges = leads.table(
  "owner_changes",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    leaseRequestId: leaseRequestRef(),
    ownerId: uuid("owner_id").references(() => staff.adminId),
    /** rule (on arrival), manual (from the detail) or handover (the owner was disabled or removed). */
    reason: text("reason").notNull(),
    /** The admin's username who reassigned it; null when the rule did. */
    changedBy: text("changed_by"),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("owner_changes_lease_request_idx").on(t.leaseRequestId, t.changedAt)],
);

/** Calls staff logged for a lease request ("Bellen"), with their outcome. */
export const leadCalls = leads.table(
  "lead_calls",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    leaseRequestId: leaseRequestRef(),
    /** bereikt, geen_gehoor, voicemail or verkeerd_nummer. */
    outcome: text("outcome").notNull(),
    note: text("note"),
    calledBy: text("called_by").notNull(),
    calledById: uuid("called_by_id"),
    calledAt: timestamp("called_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("lead_calls_lease_request_idx").on(t.leaseRequestId, t.calledAt)],
);
