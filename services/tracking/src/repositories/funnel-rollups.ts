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

/**
 * Moves a lead's counts from one visit profile's breakdown values to another's on its day (a lead
 * whose visit value was stored as "(overig)" and is stored by name by now): what the two share
 * (channel, country, landing page, ...) stays; the totals of the day and month do not change.
 */
export async function moveFunnelCounts(
  client: PoolClient,
  profileDims: ProfileDims,
  day: string,
  from: { profileId: number; landingPageId: number },
  to: { profileId: number; landingPageId: number },
  c: FunnelCounts,
): Promise<void> {
  await profileDims.load(client, [from.profileId, to.profileId]);
  const valuesOf = (v: typeof from) =>
    new Map(
      [...profileDims.of(v.profileId), [DIMS.landingPage, v.landingPageId] as const].map(([dim, id]) => [
        `${dim} ${id}`,
        [dim, id] as const,
      ]),
    );
  const before = valuesOf(from);
  const after = valuesOf(to);
  const changes: [number, number, number][] = [
    ...[...before]
      .filter(([key]) => !after.has(key))
      .map(([, [dim, id]]) => [dim, id, -1] as [number, number, number]),
    ...[...after]
      .filter(([key]) => !before.has(key))
      .map(([, [dim, id]]) => [dim, id, 1] as [number, number, number]),
  ];
  if (changes.length === 0) return;
  // The key order every rollup writer locks rows in.
  changes.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const add = `quotes = t.quotes + EXCLUDED.quotes, contacts = t.contacts + EXCLUDED.contacts,
    offers = t.offers + EXCLUDED.offers, contracts = t.contracts + EXCLUDED.contracts,
    commission_cents = t.commission_cents + EXCLUDED.commission_cents`;
  const rows = `SELECT dim, value_id, 0, 0, s * $3::int, s * $4::int, s * $5::int, s * $6::int, s * $7::bigint
    FROM unnest($8::smallint[], $9::int[], $10::int[]) AS u(dim, value_id, s)`;
  await client.query(
    `WITH dd AS (
       INSERT INTO tracking.daily_dims AS t
         (day, dim, value_id, visitors, views, quotes, contacts, offers, contracts, commission_cents)
       SELECT $1::date, r.* FROM (${rows}) r
       ON CONFLICT (day, dim, value_id) DO UPDATE SET ${add}
     )
     INSERT INTO tracking.monthly_dims AS t
       (month, dim, value_id, visits, views, quotes, contacts, offers, contracts, commission_cents)
     SELECT $2::date, r.* FROM (${rows}) r
     ON CONFLICT (month, dim, value_id) DO UPDATE SET ${add}`,
    [
      day,
      monthOf(day),
      c.quotes,
      c.contacts,
      c.offers,
      c.contracts,
      c.commissionCents,
      changes.map((x) => x[0]),
      changes.map((x) => x[1]),
      changes.map((x) => x[2]),
    ],
  );
}
