import type { PrivacyRecord } from "@lease/contracts";
import type { Pool } from "@lease/platform";

/**
 * People's data (AVG) in the tracking schema: the conversions of a person's leads (keyed by the
 * lead's id; they hold the session that sent the form). An erasure cuts that link — a new random
 * key and no session — and keeps the anonymous row, so the analytics figures, counted from these
 * rows under a filter and from the rollups without one, still agree.
 */
export function privacyRepository(pool: Pool) {
  return {
    async find(
      leadIds: readonly string[],
    ): Promise<{ conversions: PrivacyRecord[]; leadStages: PrivacyRecord[] }> {
      const r = await pool.query<{ row: PrivacyRecord }>(
        `SELECT to_jsonb(c) AS row FROM tracking.conversions c
          WHERE c.lead_id = ANY($1::uuid[]) ORDER BY c.occurred_at`,
        [leadIds],
      );
      // A quote request's stage (amounts, no person) is answered beside its conversions; the
      // person's document takes the stage from the request itself.
      const stages = await pool.query<{ row: PrivacyRecord }>(
        "SELECT to_jsonb(s) AS row FROM tracking.lead_stages s WHERE s.lead_id = ANY($1::uuid[])",
        [leadIds],
      );
      return { conversions: r.rows.map((x) => x.row), leadStages: stages.rows.map((x) => x.row) };
    },
    async erase(leadIds: readonly string[]): Promise<{ conversions: number }> {
      const r = await pool.query(
        `UPDATE tracking.conversions SET lead_id = gen_random_uuid(), session_key = NULL
          WHERE lead_id = ANY($1::uuid[])`,
        [leadIds],
      );
      // Its stage row goes: the rollups keep the counts, as they keep the conversion's.
      await pool.query("DELETE FROM tracking.lead_stages WHERE lead_id = ANY($1::uuid[])", [leadIds]);
      return { conversions: r.rowCount ?? 0 };
    },
  };
}
export type TrackingPrivacyRepository = ReturnType<typeof privacyRepository>;
