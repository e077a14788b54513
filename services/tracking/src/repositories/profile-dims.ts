import type { Pool, PoolClient } from "@lease/platform";
import { profileDimValues, type Dim } from "../domain/breakdowns";
import type { DimDirectory, Profile } from "./dictionary";

/** Cached profiles at most (each a handful of numbers). */
const CACHE_MAX = 50_000;

/**
 * Which breakdown values (channel, source, campaign, country, device, browser) a visit profile
 * stands for, as dim_values ids: written once per profile (tracking.profile_dims) and kept in
 * memory, so a batch maps its visits onto breakdown rows without a query.
 */
export class ProfileDims {
  private readonly cache = new Map<number, [Dim, number][]>();

  constructor(
    private readonly pool: Pool,
    private readonly dims: DimDirectory,
  ) {}

  /** Makes sure the profiles of this batch (id and content) have their breakdown values. */
  async ensure(profiles: Map<number, Profile>): Promise<void> {
    const missing = [...profiles].filter(([id]) => !this.cache.has(id));
    if (missing.length === 0) return;
    const perProfile = missing.map(([id, profile]) => [id, profileDimValues(profile)] as const);
    const values = new Map<string, { dim: string; value: string }>();
    for (const [, dims] of perProfile)
      for (const [dim, value] of dims) {
        const v = { dim: String(dim), value };
        values.set(this.dims.key(v), v);
      }
    const ids = await this.dims.ids(values.values());
    const rows: [number, Dim, number][] = [];
    for (const [profileId, dims] of perProfile)
      for (const [dim, value] of dims)
        rows.push([profileId, dim, ids.get(this.dims.key({ dim: String(dim), value }))!]);
    // In key order, as every writer here inserts: concurrent batches (tracking:import runs several)
    // that make the same new profiles then wait for each other instead of deadlocking.
    await this.pool.query(
      `INSERT INTO tracking.profile_dims (profile_id, value_id)
       SELECT * FROM unnest($1::int[], $2::int[]) AS u(p, v) ORDER BY p, v ON CONFLICT DO NOTHING`,
      [rows.map((r) => r[0]), rows.map((r) => r[2])],
    );
    if (this.cache.size + perProfile.length > CACHE_MAX) this.cache.clear();
    for (const [profileId] of perProfile)
      this.cache.set(
        profileId,
        rows.filter((r) => r[0] === profileId).map((r) => [r[1], r[2]]),
      );
  }

  /** Loads profiles a batch met that it did not make (within the batch's transaction). */
  async load(client: PoolClient, profileIds: number[]): Promise<void> {
    const missing = [...new Set(profileIds)].filter((id) => !this.cache.has(id));
    if (missing.length === 0) return;
    const r = await client.query<{ profile_id: number; dim: Dim; value_id: number }>(
      `SELECT pd.profile_id, dv.dim, pd.value_id FROM tracking.profile_dims pd
       JOIN tracking.dim_values dv ON dv.id = pd.value_id WHERE pd.profile_id = ANY($1::int[])`,
      [missing],
    );
    if (this.cache.size + missing.length > CACHE_MAX) this.cache.clear();
    for (const id of missing) this.cache.set(id, []);
    for (const row of r.rows) this.cache.get(row.profile_id)!.push([row.dim, row.value_id]);
  }

  /** Forgets the profiles in memory (retention may have pruned some: repositories/retention.ts). */
  forget(): void {
    this.cache.clear();
    this.dims.forget();
  }

  /** The breakdown values of a profile (none for one made before breakdowns existed). */
  of(profileId: number): [Dim, number][] {
    return this.cache.get(profileId) ?? [];
  }
}
