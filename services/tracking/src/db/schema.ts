import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  pgSchema,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { outboxTable } from "@lease/platform/outbox-table";

// The tables as drizzle sees them, for the generated migration snapshots. The raw tables
// (page_views, visitors) are partitioned by month in the migration SQL itself (drizzle cannot
// express PARTITION BY); the service creates the monthly partitions ahead of time and the
// retention job drops them (repositories/partitions.ts).

export const tracking = pgSchema("tracking");

/** Audit entries of spend imports, typed-in days and links, written in the change's transaction and relayed to the `audit` queue. */
export const outbox = outboxTable(tracking);

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });
const ts = (name: string) => timestamp(name, { withTimezone: true });

/** The page paths seen, numbered: raw rows and rollups keep the 4-byte id, not the text. */
export const pages = tracking.table("pages", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  path: text("path").notNull().unique(),
});

/**
 * One row per page view, partitioned by month of occurred_at: 48 bytes a row (the two 8-byte
 * columns first, so no padding), and one index. Keys are hashes of the stream entry id or imported
 * id (32 bits) and of the session id (64 bits) (domain/keys.ts): a redelivered or re-imported event
 * hits the primary key and adds nothing, rollups included.
 */
export const pageViews = tracking.table(
  "page_views",
  {
    occurredAt: ts("occurred_at").notNull(),
    sessionKey: bigint("session_key", { mode: "bigint" }).notNull(),
    eventKey: integer("event_key").notNull(),
    pageId: integer("page_id").notNull(),
  },
  // The primary key, session first, is also what a lead's attribution reads: its session's page
  // views between two times (partition pruning on those bounds), one index range per partition
  // touched, in the order it wants them (migration 0014). Time ranges (retention's trim of a month)
  // go by the BRIN index: rows arrive in time order, live and imported.
  (t) => [
    primaryKey({ columns: [t.sessionKey, t.occurredAt, t.eventKey] }),
    index("page_views_occurred_at_brin").using("brin", t.occurredAt),
  ],
);

/**
 * The page views of a month that is over, packed: one row per session and Amsterdam day, its views
 * in `views` as 12 bytes each (big-endian int4s: milliseconds since the day's Amsterdam midnight,
 * the event key, the page id), partitioned by month of day like visitors. A page_views row costs
 * 52 bytes on its page (a 24-byte tuple header for 24 bytes of data) and 37 in its key; here a
 * session's views of a day share one header and one key entry. The service packs each closed
 * month's page views (repositories/partitions.ts compactMonths, migration 0017's
 * tracking.pack_month) and empties its page_views partition; a late or re-imported view of a
 * packed month goes into page_views again (and is checked against these rows) until the next pass.
 */
export const pageViewDays = tracking.table(
  "page_view_days",
  {
    sessionKey: bigint("session_key", { mode: "bigint" }).notNull(),
    day: date("day").notNull(),
    views: bytea("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionKey, t.day] })],
);

/**
 * One row per session and Amsterdam day it viewed pages, partitioned by month of day. `hours` has
 * bit i set when the session viewed a page in the day's i-th hour; `added` holds the bits the last
 * write set, which is how the writer learns, under concurrent writers, whom to count as a new
 * visitor of an hour. Where the visit came from and on what (country, device, ...) is a profile
 * shared by many rows. Fixed-width columns only: 72 bytes a row (80 while last_seen was written),
 * and `sent` only where the profile stores a value of the visit as "(overig)"
 * (domain/admission.ts): the UTM values and referrer host as sent (source, medium, campaign, term,
 * content, referrer; each bounded as domain/acquisition.ts utmValue), for the attribution of a lead
 * the visit may bring. Null otherwise, and always for a visit without analytics consent (which no
 * lead is matched to).
 */
export const visitors = tracking.table(
  "visitors",
  {
    sessionKey: bigint("session_key", { mode: "bigint" }).notNull(),
    firstSeen: ts("first_seen").notNull(),
    /** Written by releases before migration 0016 only (nothing read it); dropped a release later. */
    lastSeen: ts("last_seen"),
    day: date("day").notNull(),
    hours: integer("hours").notNull(),
    added: integer("added").notNull(),
    views: integer("views").notNull(),
    landingPageId: integer("landing_page_id").notNull(),
    profileId: integer("profile_id").notNull(),
    sent: text("sent").array(),
  },
  (t) => [primaryKey({ columns: [t.day, t.sessionKey] })],
);

/**
 * The distinct combinations of where a visit came from (referrer host, UTM parameters, whether it
 * carried a paid-click id, and the channel these add up to) and on what (country, device class,
 * browser, system), numbered; '' where unknown. No address, not even truncated, and no city.
 * UTM values and referrer hosts not admitted (domain/admission.ts) are stored as "(overig)".
 */
export const profiles = tracking.table(
  "profiles",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    referrerHost: text("referrer_host").notNull().default(""),
    channel: text("channel").notNull().default(""),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    utmTerm: text("utm_term").notNull().default(""),
    utmContent: text("utm_content").notNull().default(""),
    paidClick: boolean("paid_click").notNull().default(false),
    country: text("country").notNull().default(""),
    device: text("device").notNull().default(""),
    browser: text("browser").notNull().default(""),
    os: text("os").notNull().default(""),
  },
  (t) => [
    unique("profiles_identity").on(
      t.referrerHost,
      t.channel,
      t.utmSource,
      t.utmMedium,
      t.utmCampaign,
      t.utmTerm,
      t.utmContent,
      t.paidClick,
      t.country,
      t.device,
      t.browser,
      t.os,
    ),
  ],
);

/**
 * The values visits are broken down by (dim: 1 channel, 2 source, 3 campaign, 4 landing page,
 * 5 country, 6 device, 7 browser), numbered; a campaign's value is "source / medium / campaign".
 */
export const dimValues = tracking.table(
  "dim_values",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    dim: smallint("dim").notNull(),
    value: text("value").notNull(),
  },
  (t) => [unique("dim_values_identity").on(t.dim, t.value)],
);

/** The breakdown values of a profile (all but the landing page, which is the visit's own). */
export const profileDims = tracking.table(
  "profile_dims",
  {
    profileId: integer("profile_id").notNull(),
    valueId: integer("value_id").notNull(),
  },
  // A filtered read finds the profiles of a channel or campaign by value.
  (t) => [primaryKey({ columns: [t.profileId, t.valueId] }), index("profile_dims_value_idx").on(t.valueId)],
);

/** Per Amsterdam day and breakdown value: visitors (exact), page views, quote requests, contact messages. */
export const dailyDims = tracking.table(
  "daily_dims",
  {
    day: date("day").notNull(),
    dim: smallint("dim").notNull(),
    valueId: integer("value_id").notNull(),
    visitors: integer("visitors").notNull(),
    views: integer("views").notNull(),
    quotes: integer("quotes").notNull().default(0),
    contacts: integer("contacts").notNull().default(0),
    // The funnel after the quote (leads' stage events), counted on the day the lead arrived (cohort).
    offers: integer("offers").notNull().default(0),
    contracts: integer("contracts").notNull().default(0),
    commissionCents: bigint("commission_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.dim, t.valueId] })],
);

/** The campaign report's figures of a channel or campaign value (running totals and their changes). */
const reportFigures = () => ({
  visitors: bigint("visitors", { mode: "number" }).notNull(),
  quotes: bigint("quotes", { mode: "number" }).notNull(),
  contacts: bigint("contacts", { mode: "number" }).notNull(),
  offers: bigint("offers", { mode: "number" }).notNull(),
  contracts: bigint("contracts", { mode: "number" }).notNull(),
  commissionCents: bigint("commission_cents", { mode: "number" }).notNull(),
});

/**
 * The campaign report's running totals: per channel or campaign value (dims 1 and 3) and Amsterdam
 * day, daily_dims' figures summed from the 1st of the month up to and including that day, with a
 * row for every day from the value's first day in the month to the month's end. Any loose days of a
 * month are then two rows per value (the day before minus the last day), whatever their number.
 * Kept from daily_dims' changes, whoever writes them: a trigger records each change in
 * report_running_pending (migration 0010), and compaction (repositories/running-totals.ts) adds
 * them here off the writer's path; readers add what is still pending.
 */
export const reportRunningDims = tracking.table(
  "report_running_dims",
  {
    day: date("day").notNull(),
    dim: smallint("dim").notNull(),
    valueId: integer("value_id").notNull(),
    ...reportFigures(),
  },
  (t) => [primaryKey({ columns: [t.day, t.dim, t.valueId] })],
);

/**
 * Changes of daily_dims' channel and campaign rows not yet in report_running_dims: one row per
 * changed row, written by the trigger in the writer's own transaction (a plain insert, where the
 * running rows would be one upsert per day left in the month), moved into the running totals by
 * compaction every second. Few rows: readers add them to the running totals of their edge days.
 */
export const reportRunningPending = tracking.table(
  "report_running_pending",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    day: date("day").notNull(),
    dim: smallint("dim").notNull(),
    valueId: integer("value_id").notNull(),
    ...reportFigures(),
  },
  (t) => [index("report_running_pending_day_idx").on(t.day)],
);

/** The same per month (visitors of a month come from its sketches). */
export const monthlyDims = tracking.table(
  "monthly_dims",
  {
    month: date("month").notNull(),
    dim: smallint("dim").notNull(),
    valueId: integer("value_id").notNull(),
    /** Visitors summed over the month's days (visits): ranks the values; distinct ones come from sketches. */
    visits: bigint("visits", { mode: "number" }).notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
    quotes: integer("quotes").notNull().default(0),
    contacts: integer("contacts").notNull().default(0),
    // The funnel after the quote (leads' stage events), counted on the day the lead arrived (cohort).
    offers: integer("offers").notNull().default(0),
    contracts: integer("contracts").notNull().default(0),
    commissionCents: bigint("commission_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.dim, t.valueId] })],
);

/**
 * Visits (visitor-days) and their page views per Amsterdam day, visit profile and landing page: what
 * a filtered analytics read (channel, campaign, landing page) sums, after resolving the filter to
 * profile ids (profile_dims) and a page id. Rows per day are bounded by the day's distinct profiles
 * times landing pages, not by its traffic.
 */
export const dailyVisits = tracking.table(
  "daily_visits",
  {
    day: date("day").notNull(),
    profileId: integer("profile_id").notNull(),
    landingPageId: integer("landing_page_id").notNull(),
    visits: integer("visits").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.profileId, t.landingPageId] })],
);

/**
 * The same per hour, for filtered periods of up to two days: visitors (sessions of the matching
 * visits with a page view in the hour, exact) and their page views in the hour.
 */
export const hourlyVisits = tracking.table(
  "hourly_visits",
  {
    hour: ts("hour").notNull(),
    profileId: integer("profile_id").notNull(),
    landingPageId: integer("landing_page_id").notNull(),
    visitors: integer("visitors").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.profileId, t.landingPageId] })],
);

/** The same per month (visits summed over the month's days). */
export const monthlyVisits = tracking.table(
  "monthly_visits",
  {
    month: date("month").notNull(),
    profileId: integer("profile_id").notNull(),
    landingPageId: integer("landing_page_id").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.profileId, t.landingPageId] })],
);

/**
 * Breakdowns of the visits of one filter value (fdim 1 a channel, 3 a campaign, 4 a landing page;
 * fvalue its dim_values or page id) per Amsterdam day: visits and page views per breakdown value of
 * another dimension (dim, value_id as in daily_dims, which holds the filter's own dimension). A read
 * filtered on one dimension sums these few rows instead of the visit rows of every matching profile.
 */
export const dailyDimPairs = tracking.table(
  "daily_dim_pairs",
  {
    day: date("day").notNull(),
    fdim: smallint("fdim").notNull(),
    fvalue: integer("fvalue").notNull(),
    dim: smallint("dim").notNull(),
    valueId: integer("value_id").notNull(),
    visits: integer("visits").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.fdim, t.fvalue, t.dim, t.valueId] })],
);

/** The same per month. */
export const monthlyDimPairs = tracking.table(
  "monthly_dim_pairs",
  {
    month: date("month").notNull(),
    fdim: smallint("fdim").notNull(),
    fvalue: integer("fvalue").notNull(),
    dim: smallint("dim").notNull(),
    valueId: integer("value_id").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.fdim, t.fvalue, t.dim, t.valueId] })],
);

/**
 * Quote requests and contact messages as conversions of the visit that sent them, once each (the
 * lead's id), with that visit's profile and landing page when the form carried its session id.
 */
export const conversions = tracking.table(
  "conversions",
  {
    leadId: uuid("lead_id").primaryKey(),
    kind: text("kind").notNull(),
    occurredAt: ts("occurred_at").notNull(),
    day: date("day").notNull(),
    sessionKey: bigint("session_key", { mode: "bigint" }),
    profileId: integer("profile_id"),
    landingPageId: integer("landing_page_id"),
    /**
     * The visit's values as sent while its profile stores one of them as "(overig)" (visitors.sent):
     * once such a value is stored by name, the conversion moves to the profile with it
     * (repositories/reattribution.ts) and this is cleared.
     */
    sent: text("sent").array(),
  },
  (t) => [
    // A filtered read counts a period's conversions (a few per visit at most) by day.
    index("conversions_day_idx").on(t.day),
    // The conversions still waiting for a value to be stored by name, and only those.
    index("conversions_waiting_idx")
      .on(t.day, t.leadId)
      .where(sql`${t.sent} IS NOT NULL`),
  ],
);

/**
 * The newest stage a quote request reached as the leads service announced it (tracking.stage), and
 * whether the rollups hold it yet: they do once the lead's conversion is recorded (cohort: on the
 * conversion's day, under its visit's breakdown values), whichever of the two jobs comes first.
 */
export const leadStages = tracking.table("lead_stages", {
  leadId: uuid("lead_id").primaryKey(),
  seq: integer("seq").notNull(),
  offered: boolean("offered").notNull(),
  signed: boolean("signed").notNull(),
  commissionCents: bigint("commission_cents", { mode: "number" }).notNull(),
  counted: boolean("counted").notNull(),
});

/** Page views and distinct visitors per UTC hour (= Amsterdam hour). */
export const hourly = tracking.table("hourly", {
  hour: ts("hour").primaryKey(),
  views: integer("views").notNull(),
  visitors: integer("visitors").notNull(),
});

export const hourlyPages = tracking.table(
  "hourly_pages",
  {
    hour: ts("hour").notNull(),
    pageId: integer("page_id").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.pageId] })],
);

/** Page views and exact distinct visitors per Amsterdam day. */
export const daily = tracking.table("daily", {
  day: date("day").primaryKey(),
  views: integer("views").notNull(),
  visitors: integer("visitors").notNull(),
  quotes: integer("quotes").notNull().default(0),
  contacts: integer("contacts").notNull().default(0),
  // The funnel after the quote (leads' stage events), counted on the day the lead arrived (cohort).
  offers: integer("offers").notNull().default(0),
  contracts: integer("contracts").notNull().default(0),
  commissionCents: bigint("commission_cents", { mode: "number" }).notNull().default(0),
});

export const dailyPages = tracking.table(
  "daily_pages",
  {
    day: date("day").notNull(),
    pageId: integer("page_id").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.pageId] })],
);

/** Page views per Amsterdam month (distinct visitors of a month come from its sketch). */
export const monthly = tracking.table("monthly", {
  month: date("month").primaryKey(),
  views: bigint("views", { mode: "number" }).notNull(),
  quotes: integer("quotes").notNull().default(0),
  contacts: integer("contacts").notNull().default(0),
  // The funnel after the quote (leads' stage events), counted on the day the lead arrived (cohort).
  offers: integer("offers").notNull().default(0),
  contracts: integer("contracts").notNull().default(0),
  commissionCents: bigint("commission_cents", { mode: "number" }).notNull().default(0),
});

export const monthlyPages = tracking.table(
  "monthly_pages",
  {
    month: date("month").notNull(),
    pageId: integer("page_id").notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.pageId] })],
);

/**
 * HyperLogLog sketches of the visitors of a day (kind 'd') or month ('m'), for the whole site
 * (scope 0) or one page (scope = page id). Written by compaction from sketch_deltas.
 */
export const sketches = tracking.table(
  "sketches",
  {
    kind: text("kind").notNull(),
    period: date("period").notNull(),
    scope: integer("scope").notNull(),
    regs: bytea("regs").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.period, t.scope] })],
);

/** Sketch additions of one written batch, per day and scope, merged into `sketches` in the background. */
export const sketchDeltas = tracking.table(
  "sketch_deltas",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    day: date("day").notNull(),
    scope: integer("scope").notNull(),
    regs: bytea("regs").notNull(),
  },
  // Readers look deltas up by scope over a range of days; retention deletes by day (a small table).
  (t) => [index("sketch_deltas_scope_day_idx").on(t.scope, t.day)],
);

/**
 * Ad spend per platform, Amsterdam day and campaign name as the platform's export names it, in
 * cents; an import or a typed-in amount replaces the day's (the key makes a re-import a no-op).
 */
export const adSpend = tracking.table(
  "ad_spend",
  {
    platform: text("platform").notNull(),
    day: date("day").notNull(),
    campaign: text("campaign").notNull(),
    spendCents: bigint("spend_cents", { mode: "number" }).notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.campaign, t.day] }), index("ad_spend_day_idx").on(t.day)],
);

/** The same per Amsterdam month, kept with each change: a two-year report reads months, not days. */
export const adSpendMonthly = tracking.table(
  "ad_spend_monthly",
  {
    platform: text("platform").notNull(),
    month: date("month").notNull(),
    campaign: text("campaign").notNull(),
    spendCents: bigint("spend_cents", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.platform, t.campaign, t.month] }),
    index("ad_spend_monthly_month_idx").on(t.month),
  ],
);

/**
 * ad_spend's running totals per month, as report_running_dims: a trigger on ad_spend records each
 * statement's changes in ad_spend_running_pending (migration 0013), compaction spreads them here.
 */
export const adSpendRunning = tracking.table(
  "ad_spend_running",
  {
    day: date("day").notNull(),
    platform: text("platform").notNull(),
    campaign: text("campaign").notNull(),
    spendCents: bigint("spend_cents", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.platform, t.campaign] })],
);

/**
 * Changes of ad_spend not yet in ad_spend_running: one row per changed day, written in the change's
 * own statement (an import of 20,000 new days would otherwise upsert up to 620,000 running rows in
 * its transaction), moved into the running totals by compaction; readers add them meanwhile.
 */
export const adSpendRunningPending = tracking.table(
  "ad_spend_running_pending",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    day: date("day").notNull(),
    platform: text("platform").notNull(),
    campaign: text("campaign").notNull(),
    spendCents: bigint("spend_cents", { mode: "number" }).notNull(),
  },
  (t) => [index("ad_spend_running_pending_day_idx").on(t.day)],
);

/** A spend campaign name linked to the utm_campaign its ads land with, when the two differ. */
export const spendLinks = tracking.table(
  "spend_links",
  {
    platform: text("platform").notNull(),
    campaign: text("campaign").notNull(),
    utmCampaign: text("utm_campaign").notNull(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.campaign] })],
);
