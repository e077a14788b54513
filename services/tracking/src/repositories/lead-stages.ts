import type { StageJobData } from "@lease/contracts";
import { withTransaction, type Pool, type PoolClient } from "@lease/platform";
import { addFunnelCounts, NO_COUNTS, type FunnelCounts } from "./funnel-rollups";
import type { ProfileDims } from "./profile-dims";

interface StageRow {
  seq: number;
  offered: boolean;
  signed: boolean;
  commission_cents: string | number;
  counted: boolean;
}

/** The funnel counts a stage stands for. */
function countsOf(stage: { offered: boolean; signed: boolean; commissionCents: number }): FunnelCounts {
  return {
    ...NO_COUNTS,
    offers: stage.offered ? 1 : 0,
    contracts: stage.signed ? 1 : 0,
    commissionCents: stage.commissionCents,
  };
}

const minus = (a: FunnelCounts, b: FunnelCounts): FunnelCounts => ({
  quotes: a.quotes - b.quotes,
  contacts: a.contacts - b.contacts,
  offers: a.offers - b.offers,
  contracts: a.contracts - b.contracts,
  commissionCents: a.commissionCents - b.commissionCents,
});

/**
 * The stage job and the conversion job of one lead may run at once on two replicas: each takes
 * this lock first, so one of them always sees the other's row and the stage is counted once.
 */
export async function lockLead(client: PoolClient, leadId: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 35))", [leadId]);
}

interface ConversionVisit {
  day: string;
  visit: { profileId: number; landingPageId: number } | null;
}

async function conversionOf(client: PoolClient, leadId: string): Promise<ConversionVisit | null> {
  const r = await client.query<{ day: string; profile_id: number | null; landing_page_id: number | null }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, profile_id, landing_page_id
       FROM tracking.conversions WHERE lead_id = $1`,
    [leadId],
  );
  const row = r.rows[0];
  if (!row) return null;
  const visit =
    row.profile_id !== null && row.landing_page_id !== null
      ? { profileId: row.profile_id, landingPageId: row.landing_page_id }
      : null;
  return { day: row.day, visit };
}

/**
 * Called by the conversion recorder in its transaction (lead locked) when a lead's conversion is
 * new: a stage heard before it is counted now.
 */
export async function countWaitingStage(
  client: PoolClient,
  profileDims: ProfileDims,
  leadId: string,
  day: string,
  visit: ConversionVisit["visit"],
): Promise<void> {
  const r = await client.query<StageRow>(
    "SELECT seq, offered, signed, commission_cents, counted FROM tracking.lead_stages WHERE lead_id = $1",
    [leadId],
  );
  const row = r.rows[0];
  if (!row || row.counted) return;
  await addFunnelCounts(
    client,
    profileDims,
    day,
    visit,
    countsOf({ ...row, commissionCents: Number(row.commission_cents) }),
  );
  await client.query("UPDATE tracking.lead_stages SET counted = true WHERE lead_id = $1", [leadId]);
}

/**
 * What the rollups hold for a lead's stage (within the caller's transaction, lead locked): its
 * offer, contract and commission once counted, else nothing.
 */
export async function countedStage(client: PoolClient, leadId: string): Promise<FunnelCounts> {
  const r = await client.query<StageRow>(
    "SELECT seq, offered, signed, commission_cents, counted FROM tracking.lead_stages WHERE lead_id = $1",
    [leadId],
  );
  const row = r.rows[0];
  return row?.counted ? countsOf({ ...row, commissionCents: Number(row.commission_cents) }) : NO_COUNTS;
}

export type StageOutcome = "counted" | "waiting" | "stale";

/**
 * A lead's stage (tracking.stage): kept once per lead, the newest (`seq`) wins, so a redelivered
 * or late job changes nothing. Once the lead's conversion is recorded the rollups move from what
 * they held for it to the new stage, on the conversion's day (cohort: a contract counts in the
 * period its lead arrived); before that the stage waits for it (countWaitingStage).
 */
export function leadStagesRepository(pool: Pool, profileDims: ProfileDims) {
  return {
    async apply(data: StageJobData): Promise<StageOutcome> {
      return withTransaction(pool, async (client) => {
        await lockLead(client, data.sourceId);
        const prev = (
          await client.query<StageRow>(
            "SELECT seq, offered, signed, commission_cents, counted FROM tracking.lead_stages WHERE lead_id = $1",
            [data.sourceId],
          )
        ).rows[0];
        if (prev && prev.seq >= data.seq) return "stale";
        const conversion = await conversionOf(client, data.sourceId);
        if (conversion) {
          const held =
            prev?.counted === true
              ? countsOf({ ...prev, commissionCents: Number(prev.commission_cents) })
              : NO_COUNTS;
          await addFunnelCounts(
            client,
            profileDims,
            conversion.day,
            conversion.visit,
            minus(countsOf(data), held),
          );
        }
        await client.query(
          `INSERT INTO tracking.lead_stages (lead_id, seq, offered, signed, commission_cents, counted)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (lead_id) DO UPDATE SET seq = EXCLUDED.seq, offered = EXCLUDED.offered,
             signed = EXCLUDED.signed, commission_cents = EXCLUDED.commission_cents, counted = EXCLUDED.counted`,
          [data.sourceId, data.seq, data.offered, data.signed, data.commissionCents, conversion !== null],
        );
        return conversion ? "counted" : "waiting";
      });
    },
  };
}
export type LeadStagesRepository = ReturnType<typeof leadStagesRepository>;
