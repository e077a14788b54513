import { withTransaction, type Pool } from "@lease/platform";
import { ADMITTED_FIELDS, type AdmittedField } from "../domain/admission";
import { OTHER } from "../domain/breakdowns";
import { addDays } from "../domain/calendar";
import { ATTRIBUTION_LOOKBACK_DAYS } from "./conversions";
import { PROFILE_COLUMNS, type Profile, type ProfileDirectory } from "./dictionary";
import { moveFunnelCounts, NO_COUNTS } from "./funnel-rollups";
import { countedStage, lockLead } from "./lead-stages";
import { holdDictionaries } from "./page-views";
import type { ProfileDims } from "./profile-dims";

/** What moving a lead asks the admission of values (repositories/value-admission.ts). */
export interface AdmittedValues {
  established(day: string, values: { field: AdmittedField; value: string }[]): Promise<boolean[]>;
  vouchForCampaign(day: string, source: string, medium: string, campaign: string): Promise<void>;
  /** Changes whenever a new value is stored by name on `day`. */
  admittedStamp(day: string): Promise<string>;
}

const COLUMN: Record<AdmittedField, keyof Profile> = {
  source: "utm_source",
  medium: "utm_medium",
  campaign: "utm_campaign",
  term: "utm_term",
  content: "utm_content",
  referrer: "referrer_host",
};

/** Leads a sweep reads at a time. */
const PAGE = 100;

interface Waiting extends Profile {
  profile_id: number;
  landing_page_id: number;
  day: string;
  kind: "quote" | "contact";
  sent: string[];
}

/**
 * A lead whose visit sent a value the breakdowns store as "(overig)" (a new campaign's first
 * visitor, or one beyond a spent budget: domain/admission.ts) is counted under "(overig)" at
 * first; its conversion keeps the values as sent (`conversions.sent`). Once such a value is stored
 * by name (within the 30 days a visit counts for), the conversion moves to the profile with that
 * value, and its counts (the request, and its offer, contract and commission) with it on the
 * lead's day, so the campaign report counts the earlier lead too. Each move reads and writes only
 * the one lead's rows; the leads still waiting are read by an index of them alone.
 */
export class Reattribution {
  private stamp = "";

  constructor(
    private readonly pool: Pool,
    private readonly profiles: ProfileDirectory,
    private readonly profileDims: ProfileDims,
    private readonly gate: AdmittedValues,
  ) {}

  /** Moves one lead to its values stored by name, as far as they are by now; answers whether it moved. */
  async lead(leadId: string, today: string): Promise<boolean> {
    const r = await this.pool.query<Waiting>(
      `SELECT c.profile_id, c.landing_page_id, to_char(c.day, 'YYYY-MM-DD') AS day, c.kind, c.sent,
              ${PROFILE_COLUMNS.map((column) => `p.${column}::text`).join(", ")}
         FROM tracking.conversions c JOIN tracking.profiles p ON p.id = c.profile_id
        WHERE c.lead_id = $1 AND c.sent IS NOT NULL`,
      [leadId],
    );
    const row = r.rows[0];
    if (!row) return false;
    const waiting = ADMITTED_FIELDS.flatMap((field, i) => {
      const value = row.sent[i] ?? "";
      return value !== "" && row[COLUMN[field]] === OTHER ? [{ field, value }] : [];
    });
    const known = await this.gate.established(today, waiting);
    const admitted = waiting.filter((_, i) => known[i]);
    if (waiting.length > 0 && admitted.length === 0) return false;
    const profile = Object.fromEntries(PROFILE_COLUMNS.map((column) => [column, row[column]])) as Profile;
    for (const { field, value } of admitted) profile[COLUMN[field]] = value;
    const done = admitted.length === waiting.length;
    const moved = await this.move(leadId, row, profile, done);
    if (moved && done && (profile.utm_source || profile.utm_medium || profile.utm_campaign))
      await this.gate.vouchForCampaign(today, profile.utm_source, profile.utm_medium, profile.utm_campaign);
    return moved;
  }

  private async move(leadId: string, row: Waiting, profile: Profile, done: boolean): Promise<boolean> {
    const profileId = (await this.profiles.ids([profile])).get(this.profiles.key(profile))!;
    await this.profileDims.ensure(new Map([[profileId, profile]]));
    try {
      return await withTransaction(this.pool, async (client) => {
        await holdDictionaries(client, [profileId]);
        await lockLead(client, leadId);
        const now = await client.query<{ profile_id: number }>(
          "SELECT profile_id FROM tracking.conversions WHERE lead_id = $1 AND sent IS NOT NULL",
          [leadId],
        );
        // Moved meanwhile (another replica), or erased: nothing to do.
        if (now.rows[0]?.profile_id !== row.profile_id) return false;
        if (profileId !== row.profile_id) {
          const request = row.kind === "quote" ? { quotes: 1, contacts: 0 } : { quotes: 0, contacts: 1 };
          const stage = row.kind === "quote" ? await countedStage(client, leadId) : NO_COUNTS;
          await moveFunnelCounts(
            client,
            this.profileDims,
            row.day,
            { profileId: row.profile_id, landingPageId: row.landing_page_id },
            { profileId, landingPageId: row.landing_page_id },
            { ...stage, ...request },
          );
        }
        await client.query(
          `UPDATE tracking.conversions SET profile_id = $2, sent = CASE WHEN $3 THEN NULL ELSE sent END
            WHERE lead_id = $1`,
          [leadId, profileId, done],
        );
        return profileId !== row.profile_id;
      });
    } catch (err) {
      // Retention pruned what this replica had numbered: number it again at the next try.
      this.profiles.forget();
      this.profileDims.forget();
      throw err;
    }
  }

  /**
   * Every lead of the last 30 days still waiting for a value, moved where its values are stored by
   * name by now; answers how many moved.
   */
  async sweep(today: string): Promise<number> {
    let moved = 0;
    let after = {
      day: addDays(today, -ATTRIBUTION_LOOKBACK_DAYS),
      leadId: "00000000-0000-0000-0000-000000000000",
    };
    for (;;) {
      const r = await this.pool.query<{ lead_id: string; day: string }>(
        `SELECT lead_id, to_char(day, 'YYYY-MM-DD') AS day FROM tracking.conversions
          WHERE sent IS NOT NULL AND (day, lead_id) > ($1::date, $2::uuid)
          ORDER BY day, lead_id LIMIT ${PAGE}`,
        [after.day, after.leadId],
      );
      for (const row of r.rows) if (await this.lead(row.lead_id, today)) moved++;
      if (r.rows.length < PAGE) return moved;
      const last = r.rows.at(-1)!;
      after = { day: last.day, leadId: last.lead_id };
    }
  }

  /** A sweep, when a new value was stored by name since the last one (on any replica). */
  async tick(today: string): Promise<number> {
    const stamp = await this.gate.admittedStamp(today);
    if (stamp === this.stamp) return 0;
    const moved = await this.sweep(today);
    this.stamp = stamp;
    return moved;
  }
}
