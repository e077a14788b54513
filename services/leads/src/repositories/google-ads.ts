import { eq, sql } from "drizzle-orm";
import { DEFAULT_GOOGLE_CONVERSION_NAMES, type ConversionEvent, type FormClickIds } from "@lease/contracts";
import { auditEvent, type Database, type Pool } from "@lease/platform";
import { googleAdsFeed } from "../db/schema";
import type { GoogleConversionRow } from "../domain/google-ads-file";
import { queueAudit, type Tx } from "./lease-requests";

export type GoogleAdsFeedRow = typeof googleAdsFeed.$inferSelect;
export type ConversionNamePatch = Partial<Record<ConversionEvent, string>>;

/** The names' columns, and the field each is audited as (never its value). */
const NAME_FIELDS = {
  lead: ["leadConversionName", "googleAdsLeadConversion"],
  offerte: ["offerteConversionName", "googleAdsOfferteConversion"],
  getekend: ["getekendConversionName", "googleAdsGetekendConversion"],
} as const satisfies Record<ConversionEvent, [keyof GoogleAdsFeedRow, string]>;

const EMPTY: GoogleAdsFeedRow = {
  id: 1,
  leadConversionName: null,
  offerteConversionName: null,
  getekendConversionName: null,
  secretHash: null,
  secretRotatedAt: null,
  secretFetchedAt: null,
};

/**
 * A lead's events for the Google Ads file, from its own rows: consented leads with a Google click id
 * that arrived since `$1` (the partial index lease_requests_google_click_idx: its predicate is
 * repeated word for word, so the planner can use it) and whose click, when the page told it, is not
 * older than `$2` (ms); each lead's arrival and its offer and contract as the ad platforms were told
 * them (conversion_events).
 */
const CONVERSIONS_SQL = `
  WITH clicked AS (
    SELECT id, created_at, click_ids FROM leads.lease_requests
     WHERE marketing_consent AND click_ids ?| ARRAY['gclid', 'gbraid', 'wbraid']
       AND created_at >= $1
       AND (click_ids->>'clickedAt' IS NULL OR (click_ids->>'clickedAt')::bigint >= $2)
  )
  SELECT c.id, c.click_ids, 'lead' AS event, c.created_at AS at, NULL::integer AS value_cents FROM clicked c
  UNION ALL
  SELECT c.id, c.click_ids, e.event, e.at, e.value_cents
    FROM clicked c JOIN leads.conversion_events e ON e.lease_request_id = c.id
  ORDER BY at, id, event`;

/** The Google Ads file's settings (one row) and the rows it lists. */
export function googleAdsRepository(db: Database, pool: Pool) {
  /** The one row, made if missing and locked until the transaction ends. */
  async function lockedRow(tx: Tx) {
    await tx.insert(googleAdsFeed).values({ id: 1 }).onConflictDoNothing();
    const [row] = await tx.select().from(googleAdsFeed).where(eq(googleAdsFeed.id, 1)).for("update");
    return row!;
  }

  return {
    async get(): Promise<GoogleAdsFeedRow> {
      const [row] = await db.select().from(googleAdsFeed).where(eq(googleAdsFeed.id, 1));
      return row ?? EMPTY;
    },

    /** Stores the names sent; the fields that changed are audited (field names only) in the same transaction. */
    async saveNames(patch: ConversionNamePatch, actor: string): Promise<GoogleAdsFeedRow> {
      return db.transaction(async (tx) => {
        const before = await lockedRow(tx);
        const set: Partial<GoogleAdsFeedRow> = {};
        const changed: string[] = [];
        for (const event of Object.keys(NAME_FIELDS) as ConversionEvent[]) {
          const value = patch[event];
          const [column, field] = NAME_FIELDS[event];
          // Unchanged when it is the name in use already (a name never set is the default).
          if (value === undefined || value === (before[column] ?? DEFAULT_GOOGLE_CONVERSION_NAMES[event]))
            continue;
          set[column] = value;
          changed.push(field);
        }
        if (changed.length === 0) return before;
        const [after] = await tx.update(googleAdsFeed).set(set).where(eq(googleAdsFeed.id, 1)).returning();
        await queueAudit(tx, auditEvent(actor, "settings.google_ads_changed", null, changed.join(", ")));
        return after!;
      });
    },

    /** Replaces the secret's hash (the old URL stops working with this commit), audited in the same transaction. */
    async rotateSecret(hash: string, actor: string): Promise<GoogleAdsFeedRow> {
      return db.transaction(async (tx) => {
        await lockedRow(tx);
        const [after] = await tx
          .update(googleAdsFeed)
          .set({ secretHash: hash, secretRotatedAt: sql`now()`, secretFetchedAt: null })
          .where(eq(googleAdsFeed.id, 1))
          .returning();
        await queueAudit(tx, auditEvent(actor, "settings.google_ads_url_rotated"));
        return after!;
      });
    },

    /** Records who downloaded the file in the panel, and how many conversions it held. */
    async recordDownload(actor: string, conversions: number): Promise<void> {
      const detail = `${conversions} ${conversions === 1 ? "conversie" : "conversies"}`;
      await db.transaction((tx) => queueAudit(tx, auditEvent(actor, "google_ads.downloaded", null, detail)));
    },

    /** Notes that the URL of this secret answered the file (unless it was replaced meanwhile). */
    async markFetched(hash: string): Promise<void> {
      await db
        .update(googleAdsFeed)
        .set({ secretFetchedAt: sql`now()` })
        .where(eq(googleAdsFeed.secretHash, hash));
    },

    /** The conversions of the leads whose click is not older than `since`, oldest first. */
    async conversions(since: Date): Promise<GoogleConversionRow[]> {
      const result = await pool.query<{
        click_ids: FormClickIds;
        event: ConversionEvent;
        at: Date;
        value_cents: number | null;
      }>(CONVERSIONS_SQL, [since, since.getTime()]);
      return result.rows.map((r) => ({
        clickIds: r.click_ids,
        event: r.event,
        at: r.at,
        valueCents: r.value_cents,
      }));
    },
  };
}
export type GoogleAdsRepository = ReturnType<typeof googleAdsRepository>;

/** The query the file runs, for a test that checks it reads through its index. */
export const GOOGLE_ADS_CONVERSIONS_SQL = CONVERSIONS_SQL;
