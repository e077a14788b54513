import {
  ANALYTICS_CHANNELS,
  ATTRIBUTION_PAGES_MAX,
  type AnalyticsChannel,
  type JobSource,
  type LeadAttribution,
} from "@lease/contracts";
import { withTransaction, type Pool, type PoolClient } from "@lease/platform";
import { addDays, amsterdamDate, dayOf } from "../domain/calendar";
import { key64 } from "../domain/keys";
import type { ProfileDims } from "./profile-dims";
import { addFunnelCounts, NO_COUNTS } from "./funnel-rollups";
import { countWaitingStage, lockLead } from "./lead-stages";

/**
 * How far back a conversion looks for the start of its visit: the session's first page view within
 * the 30 Amsterdam days up to the day of the form (the session id itself lives in the browser for
 * as long as consent lasts).
 */
export const ATTRIBUTION_LOOKBACK_DAYS = 30;

export interface ConversionInput {
  source: JobSource;
  /** The lease request's or contact message's id: a conversion is recorded once per lead. */
  leadId: string;
  sessionId: string | null;
  at: Date;
}

/** One visitor-day row of the converting session. */
interface VisitDay {
  day: string;
  first_seen: Date;
  hours: number;
  landing_page_id: number;
  profile_id: number;
  /** The values as sent where the profile stores one as "(overig)" (source ... referrer), else null. */
  sent: string[] | null;
}

export interface ConversionResult {
  /** False when this lead was recorded before (a redelivered job): the rollups were not touched. */
  recorded: boolean;
  /** Null when the form came without a session id or no page view of that session was found. */
  attribution: LeadAttribution | null;
}

const KIND: Record<JobSource, "quote" | "contact"> = { lease_request: "quote", contact_form: "contact" };

/**
 * Quote requests and contact messages as conversions: recorded once per lead in
 * tracking.conversions and, in the same transaction, counted in the daily and monthly rollups and
 * in the breakdown rollups of the visit's first page view (its channel, source, campaign,
 * country, device, browser and landing page), on the day the form arrived.
 */
export class ConversionRecorder {
  constructor(
    private readonly pool: Pool,
    private readonly profileDims: ProfileDims,
  ) {}

  /** The session's visitor-days of the lookback window up to the form, oldest first. */
  async visitDays(sessionId: string, at: Date): Promise<VisitDay[]> {
    const today = dayOf(at.getTime()).day;
    const days = Array.from({ length: ATTRIBUTION_LOOKBACK_DAYS }, (_, i) => addDays(today, -i));
    // One index probe per day of the primary key (day, session_key), whatever the traffic.
    const r = await this.pool.query<VisitDay>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, first_seen, hours, landing_page_id, profile_id, sent
         FROM tracking.visitors
        WHERE day = ANY($1::date[]) AND session_key = $2 AND first_seen <= $3
        ORDER BY day`,
      [days, key64(sessionId).sql, at.toISOString()],
    );
    return r.rows;
  }

  /** Whether the day of the form already has a page view of this session written. */
  static reachedFormDay(days: VisitDay[], at: Date): boolean {
    return days.at(-1)?.day === dayOf(at.getTime()).day;
  }

  async record(input: ConversionInput, days: VisitDay[]): Promise<ConversionResult> {
    const first = days[0];
    const day = dayOf(input.at.getTime()).day;
    const kind = KIND[input.source];
    const recorded = await withTransaction(this.pool, async (client) => {
      await lockLead(client, input.leadId);
      const inserted = await client.query(
        `INSERT INTO tracking.conversions
           (lead_id, kind, occurred_at, day, session_key, profile_id, landing_page_id, sent)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (lead_id) DO NOTHING RETURNING lead_id`,
        [
          input.leadId,
          kind,
          input.at.toISOString(),
          day,
          input.sessionId ? key64(input.sessionId).sql : null,
          first?.profile_id ?? null,
          first?.landing_page_id ?? null,
          first?.sent ?? null,
        ],
      );
      const isNew = inserted.rowCount === 1;
      if (isNew) {
        await this.count(client, day, kind, first);
        // A stage that arrived before its conversion is counted now, on the lead's day.
        const visit = first ? { profileId: first.profile_id, landingPageId: first.landing_page_id } : null;
        await countWaitingStage(client, this.profileDims, input.leadId, day, visit);
      }
      return isNew;
    });
    const attribution = first && input.sessionId ? await this.attribution(input, days) : null;
    return { recorded, attribution };
  }

  /** Adds the conversion to the day's and month's rollups and to its visit's breakdown values. */
  private async count(client: PoolClient, day: string, kind: "quote" | "contact", first?: VisitDay) {
    const quotes = kind === "quote" ? 1 : 0;
    const visit = first ? { profileId: first.profile_id, landingPageId: first.landing_page_id } : null;
    await addFunnelCounts(client, this.profileDims, day, visit, {
      ...NO_COUNTS,
      quotes,
      contacts: 1 - quotes,
    });
  }

  /**
   * The visit's attribution: the acquisition of its first page view (profile and landing page) and
   * the pages it viewed up to the form. The page views are read by session key between the visit's
   * first sighting and the form: explicit bounds, so the planner touches only the partitions of
   * those months, and in each one probe of the session index (migration 0006), whatever the
   * history holds.
   */
  private async attribution(input: ConversionInput, days: VisitDay[]): Promise<LeadAttribution> {
    const first = days[0]!;
    const [profile, pages] = await Promise.all([
      this.pool.query<{
        channel: string;
        utm_source: string;
        utm_medium: string;
        utm_campaign: string;
        utm_term: string;
        utm_content: string;
        paid_click: boolean;
        referrer_host: string;
        landing_page: string | null;
      }>(
        `SELECT p.channel, p.utm_source, p.utm_medium, p.utm_campaign, p.utm_term, p.utm_content,
                p.paid_click, p.referrer_host, (SELECT path FROM tracking.pages WHERE id = $2) AS landing_page
           FROM tracking.profiles p WHERE p.id = $1`,
        [first.profile_id, first.landing_page_id],
      ),
      this.pool.query<{ path: string; at: Date; n: string }>(
        // A month that is over has its views packed per session and day (migration 0017), and
        // may hold late ones in page_views still: both, each read by its key within its months.
        `SELECT pg.path, v.at, count(*) OVER () AS n
           FROM (SELECT occurred_at AS at, event_key, page_id FROM tracking.page_views
                  WHERE session_key = $1 AND occurred_at >= $2 AND occurred_at <= $3
                 UNION ALL
                 SELECT x.occurred_at, x.event_key, x.page_id
                   FROM tracking.page_view_days d, tracking.unpack_views(d.day, d.views) x
                  WHERE d.session_key = $1 AND d.day >= $4::date AND d.day <= $5::date
                    AND x.occurred_at >= $2 AND x.occurred_at <= $3) v
           JOIN tracking.pages pg ON pg.id = v.page_id
          ORDER BY v.at, v.event_key
          LIMIT ${ATTRIBUTION_PAGES_MAX}`,
        [
          key64(input.sessionId!).sql,
          first.first_seen.toISOString(),
          input.at.toISOString(),
          amsterdamDate(first.first_seen.getTime()),
          amsterdamDate(input.at.getTime()),
        ],
      ),
    ]);
    const p = profile.rows[0];
    // A lead is proof of a real visitor: it keeps the values its visit sent, also those the
    // breakdowns store as "(overig)" (domain/admission.ts).
    const [source, medium, campaign, term, content, referrerHost] = first.sent ?? [
      p?.utm_source ?? "",
      p?.utm_medium ?? "",
      p?.utm_campaign ?? "",
      p?.utm_term ?? "",
      p?.utm_content ?? "",
      p?.referrer_host ?? "",
    ];
    const landingPage = p?.landing_page ?? "/";
    // A visit that began before analytics consent: its landing page was sent again under the new
    // session id when consent was given (a visit start, no page view of the session), so it begins
    // before the session's first stored page view. It is still the first page the visitor saw.
    const viewed = pages.rows.map((row) => row.path);
    let count = Number(pages.rows[0]?.n ?? 0);
    if ((pages.rows[0]?.at.getTime() ?? Infinity) > first.first_seen.getTime()) {
      viewed.unshift(landingPage);
      count++;
      if (viewed.length > ATTRIBUTION_PAGES_MAX) viewed.pop();
    }
    const channel = (ANALYTICS_CHANNELS as readonly string[]).includes(p?.channel ?? "")
      ? (p!.channel as AnalyticsChannel)
      : "Other";
    return {
      channel,
      source: source ?? "",
      medium: medium ?? "",
      campaign: campaign ?? "",
      term: term ?? "",
      content: content ?? "",
      paidClick: p?.paid_click ?? false,
      referrerHost: referrerHost ?? "",
      landingPage,
      firstSeenAt: first.first_seen.toISOString(),
      pagesBeforeConversion: count,
      pages: viewed,
    };
  }
}
