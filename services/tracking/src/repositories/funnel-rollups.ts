import type { PoolClient } from "@lease/platform";
import { monthOf } from "../domain/calendar";
import { DIMS } from "../domain/breakdowns";
import type { ProfileDims } from "./profile-dims";

/** What a lead adds to a day's funnel: the form itself, and the stages it reached since. */
export interface FunnelCounts {
  quotes: number;
  contacts: number;
  offers: number;
  contracts: number;
  commissionCents: number;
}
export const NO_COUNTS: FunnelCounts = {
  quotes: 0,
  contacts: 0,
  offers: 0,
  contracts: 0,
  commissionCents: 0,
};

/**
 * Adds (or, negative, takes back) a lead's counts in the day's and month's rollups and, when its
 * visit is known, under each of the visit's breakdown values (channel, source, campaign, ...,
 * landing page), on `day`: the day the lead arrived.
 */
export async function addFunnelCounts(
  client: PoolClient,
  profileDims: ProfileDims,
  day: string,
  visit: { profileId: number; landingPageId: number } | null,
  c: FunnelCounts,
): Promise<void> {
  const values: [number, number][] = [];
  if (visit) {
    await profileDims.load(client, [visit.profileId]);
    values.push(...profileDims.of(visit.profileId), [DIMS.landingPage, visit.landingPageId]);
    // The key order every rollup writer locks rows in.
    values.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }
  const add = `quotes = t.quotes + EXCLUDED.quotes, contacts = t.contacts + EXCLUDED.contacts,
    offers = t.offers + EXCLUDED.offers, contracts = t.contracts + EXCLUDED.contracts,
    commission_cents = t.commission_cents + EXCLUDED.commission_cents`;
  await client.query(
    `WITH d AS (
       INSERT INTO tracking.daily AS t (day, views, visitors, quotes, contacts, offers, contracts, commission_cents)
       VALUES ($1, 0, 0, $3, $4, $7, $8, $9)
       ON CONFLICT (day) DO UPDATE SET ${add}
     ), m AS (
       INSERT INTO tracking.monthly AS t (month, views, quotes, contacts, offers, contracts, commission_cents)
       VALUES ($2, 0, $3, $4, $7, $8, $9)
       ON CONFLICT (month) DO UPDATE SET ${add}
     ), dd AS (
       INSERT INTO tracking.daily_dims AS t
         (day, dim, value_id, visitors, views, quotes, contacts, offers, contracts, commission_cents)
       SELECT $1, dim, value_id, 0, 0, $3, $4, $7, $8, $9 FROM unnest($5::smallint[], $6::int[]) AS u(dim, value_id)
       ON CONFLICT (day, dim, value_id) DO UPDATE SET ${add}
     )
     INSERT INTO tracking.monthly_dims AS t
       (month, dim, value_id, visits, views, quotes, contacts, offers, contracts, commission_cents)
     SELECT $2, dim, value_id, 0, 0, $3, $4, $7, $8, $9 FROM unnest($5::smallint[], $6::int[]) AS u(dim, value_id)
     ON CONFLICT (month, dim, value_id) DO UPDATE SET ${add}`,
    [
      day,
      monthOf(day),
      c.quotes,
      c.contacts,
      values.map((v) => v[0]),
      values.map((v) => v[1]),
      c.offers,
      c.contracts,
      c.commissionCents,
    ],
  );
}
