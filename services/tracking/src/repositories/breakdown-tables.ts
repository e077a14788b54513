import type { AnalyticsBreakdownRow, AnalyticsCampaignRow } from "@lease/contracts";
import type { Pool } from "@lease/platform";
import { DIMS, type Dim } from "../domain/breakdowns";

/**
 * The breakdown tables of an analytics answer from the rows of each dimension (filtered or not);
 * a campaign's stored value ["source", "medium", "campaign"] becomes "source / medium / campaign".
 */
export function breakdownTables(rows: (dim: Dim) => AnalyticsBreakdownRow[]) {
  const campaigns: AnalyticsCampaignRow[] = rows(DIMS.campaign).map((row) => {
    const [source = "", medium = "", campaign = ""] = JSON.parse(row.value) as string[];
    return { ...row, value: `${source} / ${medium} / ${campaign}`, source, medium, campaign };
  });
  return {
    channels: rows(DIMS.channel),
    sources: rows(DIMS.source),
    campaigns,
    landingPages: rows(DIMS.landingPage),
    countries: rows(DIMS.country),
    devices: rows(DIMS.device),
    browsers: rows(DIMS.browser),
  };
}

/** The values (tracking.dim_values) of the given ids. */
export async function dimValueNames(pool: Pool, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const r = await pool.query<{ id: number; value: string }>(
    "SELECT id, value FROM tracking.dim_values WHERE id = ANY($1::int[])",
    [ids],
  );
  return new Map(r.rows.map((row) => [row.id, row.value]));
}
