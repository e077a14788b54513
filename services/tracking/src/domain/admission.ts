// Which UTM values and referrer hosts of a day are stored by name, and how many visit profiles
// (combinations of them) a day may add. Anything an anonymous visitor sends becomes a row of
// tracking.profiles, tracking.dim_values and the breakdown rollups, so made-up values must neither
// grow those tables without bound nor take the place of a real campaign's value.
//
// Live traffic (repositories/value-admission.ts, shared by all replicas through Redis), per field
// (utm source, medium, campaign, term, content, referrer host) and Amsterdam day:
// - an *established* value (stored by name on one of the last 30 days) is always stored by name,
//   and never counts against the day's new values: junk cannot displace it;
// - a new value is stored by name at first sight while its address block (IPv4 /24, IPv6 /48) has
//   stored fewer than 5 new values of the field that day and the day fewer than 50 that way, so
//   a new campaign's first visitor is attributed by name, and one block's junk stores 5 values;
// - otherwise once `blocks` (2) distinct blocks sent it that day, up to 100 such values a day: a
//   real campaign brings visitors from many blocks, one attacker's junk comes from one;
// - a block counts for at most 20 new values of a field a day; what it sends beyond is "(overig)".
// So 100,000 made-up values from one block store 5, and an attacker with many blocks stores at most
// 150 new values of a field a day; until a value is stored by name the visit stores "(overig)".
//
// The combinations of a visit's values with its bounded columns (channel, paid click, country,
// device, browser, OS) are visit profiles, rows of their own: a day adds at most 3,000 new ones
// (100 per block). A combination stored on one of the last 30 days is established and takes none
// of them. Beyond the day's budget a visit gets its *coarse* profile: channel and paid click, its
// source / medium / campaign by name only when that triple was stored on one of the last 30 days
// (else "(overig)"), its referrer host by name only when it has no source, and nothing else. The
// coarse profiles are bounded by what earlier budgets stored (8 channels x 2 x the triples and
// referrers established), so anonymous traffic that spends a day's budget costs an established
// campaign neither its name nor its visits; only new combinations and new campaigns wait.
//
// A lead is not held to any of this: it gets the values its visit sent (visitors.sent), and once a
// value is stored by name its earlier leads move to it (repositories/reattribution.ts).

import { OTHER } from "./breakdowns";

/** The free-text parts of a visit profile, in the order of the bits of a check's answer. */
export const ADMITTED_FIELDS = ["source", "medium", "campaign", "term", "content", "referrer"] as const;
export type AdmittedField = (typeof ADMITTED_FIELDS)[number];

export interface AdmissionLimits {
  /** New values of a field a block's visits store by name at first sight, a day. */
  freePerBlock: number;
  /** New values of a field stored by name at first sight a day, from all blocks together. */
  freePerDay: number;
  /** Distinct address blocks a new value must otherwise come from within a day to be stored by name. */
  blocks: number;
  /** New values of a field stored by name a day because several blocks sent them. */
  newPerDay: number;
  /** New values of one field one address block counts for (either way) a day; beyond, it counts for none. */
  perBlock: number;
  /** Values of one field a day waiting for more blocks, at most. */
  candidates: number;
  /** Address blocks vouching for values a day (all fields), at most. */
  vouchers: number;
  /** A value stored by name on one of these last days is established. */
  establishedDays: number;
  /** Established values of one field at most (the longest unseen leave first). */
  established: number;
  /**
   * Distinct visit profiles a day, at most: beyond, a new combination is stored with its UTM values
   * and referrer as "(overig)" (its channel, country, device, browser and OS are bounded sets).
   */
  profilesPerDay: number;
  /** New visit profiles one address block brings a day, at most (so one block cannot fill the day's). */
  profilesPerBlock: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = {
  freePerBlock: 5,
  freePerDay: 50,
  blocks: 2,
  newPerDay: 100,
  perBlock: 20,
  candidates: 2000,
  vouchers: 20_000,
  establishedDays: 30,
  established: 5000,
  profilesPerDay: 3000,
  profilesPerBlock: 100,
};

/** One visit's values to check (the profile of its first page view). */
export interface VisitValues {
  /** Amsterdam day, YYYY-MM-DD. */
  day: string;
  /** The address block it came from (domain/anonymous-id.ts sourceTag); '' when unknown. */
  tag: string;
  /** The profile's bounded columns (channel, paid click, country, device, browser, OS) joined. */
  rest: string;
  values: Record<AdmittedField, string>;
}

/**
 * Set in a check's answer when the visit's combination is beyond the day's profiles: the visit is
 * stored under its coarse profile (country, device, browser and OS unknown; the field bits say
 * which values the coarse profile stores as "(overig)").
 */
export const COMBINATION_BIT = 1 << ADMITTED_FIELDS.length;

/**
 * Answers, per visit, which of its values are stored as "(overig)": bit i for ADMITTED_FIELDS[i],
 * COMBINATION_BIT when the visit gets its coarse profile.
 */
export interface ValueGate {
  check(visits: VisitValues[]): Promise<number[]>;
}

/** The values of a visit as stored, after a check's answer. */
export function folded(v: VisitValues, answer: number): Record<AdmittedField, string> {
  const out = { ...v.values };
  ADMITTED_FIELDS.forEach((field, i) => {
    if (out[field] !== "" && (answer & (1 << i)) !== 0) out[field] = OTHER;
  });
  return out;
}

/** Whether a check's answer stores any value of the visit as "(overig)". */
export function foldsAny(answer: number): boolean {
  return (answer & (COMBINATION_BIT - 1)) !== 0;
}

/** Distinct values of a field a day an import keeps (FirstValuesGate). */
export const IMPORT_VALUES_PER_DAY = 100;

/**
 * For imported history and the backfill of old rows (lines without an address block, written by
 * staff, one process): the first 100 distinct values of each field a day are kept, later new ones
 * become "(overig)". Remembers the last three days.
 */
export class FirstValuesGate implements ValueGate {
  private readonly days = new Map<string, Map<string, Set<string>>>();

  constructor(private readonly max = IMPORT_VALUES_PER_DAY) {}

  check(visits: VisitValues[]): Promise<number[]> {
    return Promise.resolve(
      visits.map((v) =>
        ADMITTED_FIELDS.reduce(
          (bits, field, i) => bits | (this.keep(v.day, field, v.values[field]) ? 0 : 1 << i),
          0,
        ),
      ),
    );
  }

  private keep(day: string, field: string, value: string): boolean {
    if (value === "" || value === OTHER) return true;
    let fields = this.days.get(day);
    if (!fields) {
      this.days.set(day, (fields = new Map()));
      if (this.days.size > 3) this.days.delete([...this.days.keys()].sort()[0]!);
    }
    let seen = fields.get(field);
    if (!seen) fields.set(field, (seen = new Set()));
    if (seen.has(value)) return true;
    if (seen.size >= this.max) return false;
    seen.add(value);
    return true;
  }
}
