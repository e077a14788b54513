import type { AdPlatform, AdSpendCampaign, AuditRecordJobData } from "@lease/contracts";
import { drizzle } from "drizzle-orm/node-postgres";
import {
  queueAuditEvents,
  withTransaction,
  type OutboxTable,
  type Pool,
  type PoolClient,
} from "@lease/platform";
import type { SpendRow } from "../domain/spend-csv";

/** Where a change's audit entry goes: the service's outbox, in the change's transaction. */
export interface SpendAudit {
  table: OutboxTable;
  /** Called once the change (and its entry) is committed, so the relay publishes it soon. */
  committed(): void;
}

/**
 * Storing would make the stored spend hold more distinct campaign names than its bound: refused
 * before anything is written (the report reads every stored name of its period).
 */
export class TooManyCampaigns extends Error {
  constructor(
    readonly stored: number,
    readonly added: number,
    readonly max: number,
  ) {
    super(`${stored} campaigns stored, ${added} new, at most ${max}`);
  }
}

/** What was stored, for the answer and the audit entry. */
export interface Stored {
  imported: number;
  unchanged: number;
}

/** Rows per statement when storing an import. */
const CHUNK = 5_000;
/** Campaigns a period's list answers at most. */
export const SPEND_LIST_MAX = 1_000;

/**
 * Ad spend per platform, day and campaign name (tracking.ad_spend) and the links of a spend
 * campaign name to a utm_campaign (tracking.spend_links). Storing a day's amount replaces it only
 * when it differs, so importing a file again changes nothing and says so. Every change is audited
 * (who, what, how many rows): its entry is written to the outbox in the change's transaction.
 */
export function adSpendRepository(
  pool: Pool,
  audit: SpendAudit,
  bounds: {
    campaignsMax: number;
    /** How long a change waits for another import to finish before it is refused (409). */
    lockWaitMs: number;
    /** The first month the report can still show: only names with spend since then count. */
    keptFrom: () => string;
  },
) {
  /** Runs a change and stores the audit entry it makes of its result in the same transaction. */
  async function audited<T>(
    work: (client: PoolClient) => Promise<T>,
    entry: (result: T) => AuditRecordJobData,
  ): Promise<T> {
    const result = await withTransaction(pool, async (client) => {
      const done = await work(client);
      await queueAuditEvents(drizzle(client), audit.table, [entry(done)]);
      return done;
    });
    audit.committed();
    return result;
  }

  return {
    /**
     * Stores the rows in one transaction; counts those new or changed and those already stored,
     * and audits it as `entry` says.
     */
    async store(
      platform: AdPlatform,
      rows: readonly Omit<SpendRow, "line">[],
      entry: (stored: Stored) => AuditRecordJobData,
    ): Promise<Stored> {
      return audited(async (client) => {
        // Two imports at once would each sum a month without the other's days, and each count the
        // stored names without the other's: one at a time, the next waiting a few seconds at most.
        await client.query(`SET LOCAL lock_timeout = ${Math.round(bounds.lockWaitMs)}`);
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended('tracking.ad_spend', 35))");
        await client.query("SET LOCAL lock_timeout = 0");
        const names = [...new Set(rows.map((r) => r.campaign))];
        const known = await client.query<{ stored: number; added: number }>(
          `WITH kept AS (SELECT DISTINCT platform, campaign FROM tracking.ad_spend_monthly WHERE month >= $3)
           SELECT (SELECT count(*) FROM kept)::int AS stored,
                  (SELECT count(*) FROM unnest($2::text[]) AS n(campaign)
                    WHERE NOT EXISTS (SELECT 1 FROM kept k WHERE k.platform = $1 AND k.campaign = n.campaign))::int AS added`,
          [platform, names, bounds.keptFrom()],
        );
        const { stored, added } = known.rows[0]!;
        if (added > 0 && stored + added > bounds.campaignsMax)
          throw new TooManyCampaigns(stored, added, bounds.campaignsMax);
        let imported = 0;
        for (let i = 0; i < rows.length; i += CHUNK) {
          const chunk = rows.slice(i, i + CHUNK);
          const r = await client.query<{ campaign: string; month: string }>(
            `INSERT INTO tracking.ad_spend AS t (platform, day, campaign, spend_cents)
             SELECT $1, day, campaign, cents FROM unnest($2::date[], $3::text[], $4::bigint[]) AS u(day, campaign, cents)
             ON CONFLICT (platform, campaign, day)
               DO UPDATE SET spend_cents = EXCLUDED.spend_cents, updated_at = now()
               WHERE t.spend_cents <> EXCLUDED.spend_cents
             RETURNING t.campaign, to_char(date_trunc('month', t.day), 'YYYY-MM-DD') AS month`,
            [platform, chunk.map((r) => r.day), chunk.map((r) => r.campaign), chunk.map((r) => r.cents)],
          );
          imported += r.rowCount ?? 0;
          // The months of the changed days, summed again from their days.
          const months = [
            ...new Map(r.rows.map((row) => [`${row.campaign}\u0000${row.month}`, row])).values(),
          ];
          await client.query(
            `INSERT INTO tracking.ad_spend_monthly AS m (platform, month, campaign, spend_cents)
             SELECT $1, k.month, k.campaign, sum(s.spend_cents)
               FROM unnest($2::text[], $3::date[]) AS k(campaign, month)
               JOIN tracking.ad_spend s ON s.platform = $1 AND s.campaign = k.campaign
                AND s.day >= k.month AND s.day < (k.month + interval '1 month')
              GROUP BY k.month, k.campaign
             ON CONFLICT (platform, campaign, month) DO UPDATE SET spend_cents = EXCLUDED.spend_cents`,
            [platform, months.map((m) => m.campaign), months.map((m) => m.month)],
          );
        }
        return { imported, unchanged: rows.length - imported };
      }, entry);
    },

    /** Spend per platform and campaign name over the period, most first, with the utm_campaign it counts for. */
    async list(from: string, to: string): Promise<AdSpendCampaign[]> {
      const r = await pool.query<{
        platform: AdPlatform;
        campaign: string;
        utm_campaign: string | null;
        cents: string;
        days: number;
      }>(
        `SELECT s.platform, s.campaign, l.utm_campaign, sum(s.spend_cents) AS cents, count(*)::int AS days
           FROM tracking.ad_spend s
           LEFT JOIN tracking.spend_links l ON l.platform = s.platform AND l.campaign = s.campaign
          WHERE s.day BETWEEN $1 AND $2
          GROUP BY s.platform, s.campaign, l.utm_campaign
          ORDER BY cents DESC, s.platform, s.campaign
          LIMIT ${SPEND_LIST_MAX}`,
        [from, to],
      );
      return r.rows.map((row) => ({
        platform: row.platform,
        campaign: row.campaign,
        utmCampaign: row.utm_campaign ?? row.campaign,
        linked: row.utm_campaign !== null,
        amount: Number(row.cents) / 100,
        days: row.days,
      }));
    },

    /** Links a spend campaign name to a utm_campaign, or (null) removes its link; audited as `entry`. */
    async link(
      platform: AdPlatform,
      campaign: string,
      utmCampaign: string | null,
      entry: AuditRecordJobData,
    ): Promise<void> {
      await audited(
        async (client) => {
          if (utmCampaign === null || utmCampaign === campaign)
            await client.query("DELETE FROM tracking.spend_links WHERE platform = $1 AND campaign = $2", [
              platform,
              campaign,
            ]);
          else
            await client.query(
              `INSERT INTO tracking.spend_links (platform, campaign, utm_campaign) VALUES ($1, $2, $3)
               ON CONFLICT (platform, campaign) DO UPDATE SET utm_campaign = EXCLUDED.utm_campaign`,
              [platform, campaign, utmCampaign],
            );
        },
        () => entry,
      );
    },
  };
}
export type AdSpendRepository = ReturnType<typeof adSpendRepository>;
