import { describe, expect, it } from "vitest";
import type { JobSource } from "@lease/contracts";
import { GROUPING, aggregate, percentilesOf, type ResponseRow } from "./response-aggregate";
import { packWeek, type ReportLead } from "./response-pack";

/** percentile_disc as PostgreSQL defines it: the value at rank ceil(p × n) of the sorted values. */
const disc = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!;
};

/** A deterministic pseudo-random stream. */
function stream(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe("percentilesOf", () => {
  it("equal percentile_disc over the union of sorted arrays, whatever the spread of the values (one array or many)", () => {
    const random = stream(7);
    for (const spread of [1, 50, 5_000, 3_000_000]) {
      for (const arrays of [1, 2, 7, 40]) {
        // Arrays of uneven lengths, some empty, the values skewed (a long tail, as response times).
        const sorted = Array.from({ length: arrays }, () =>
          new Int32Array(random() < 0.15 ? 0 : Math.floor(random() * 300))
            .map(() => Math.floor(random() ** 3 * spread))
            .sort(),
        );
        const all = sorted.flatMap((s) => [...s]);
        expect(percentilesOf(sorted)).toEqual(all.length === 0 ? null : [disc(all, 0.5), disc(all, 0.9)]);
      }
    }
    expect(percentilesOf([])).toBeNull();
    expect(percentilesOf([new Int32Array(0)])).toBeNull();
  });
});

describe("aggregate", () => {
  const owners = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];
  const now = new Date("2026-03-20T12:00:00Z");

  function leadsOf(random: () => number, count: number): ReportLead[] {
    return Array.from({ length: count }, () => {
      const answered = random() < 0.8;
      const due = random() < 0.9 ? new Date(now.getTime() + (random() - 0.7) * 10 * 86_400_000) : null;
      const within = answered && due !== null && random() < 0.6;
      return {
        day: Math.floor(random() * 7),
        ownerId: random() < 0.1 ? null : owners[Math.floor(random() * 2)]!,
        channel: [null, "Paid Search", "Direct", "Nieuw kanaal"][Math.floor(random() * 4)]!,
        campaign: random() < 0.5 ? null : `c${Math.floor(random() * 3)}`,
        answered,
        within,
        lateAnswer: answered && due !== null && !within,
        dueAt: due,
        workingMinutes: answered ? Math.floor(random() * 600) : null,
        clockMinutes: answered ? Math.floor(random() * 3000) : null,
      };
    });
  }

  it("counts and percentiles per week, owner, channel, campaign, kind and in total, the period's days only", () => {
    const random = stream(43);
    const kept: { kind: JobSource; week: string; lead: ReportLead }[] = [];
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
    // 24 weeks from Monday 5 January 2026, each kind's leads of a week packed apart.
    const mondays = Array.from({ length: 24 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 5 + 7 * i)).toISOString().slice(0, 10),
    );
    const packed = mondays.flatMap((week) =>
      (["lease_request", "contact_form"] as const).map((kind) => {
        const leads = leadsOf(random, 120);
        for (const lead of leads) kept.push({ kind, week, lead });
        return packWeek(kind, week, leads);
      }),
    );
    // Wednesday 4 March to Tuesday 17 March: days cut from the first and the last week; and 22 weeks
    // from Wednesday 7 January, cut too, holding whole blocks of weeks (merged once, then reused).
    for (const period of [
      { from: "2026-03-04", to: "2026-03-17" },
      { from: "2026-01-07", to: "2026-06-09" },
      { from: "2026-01-07", to: "2026-06-09" },
    ])
      expectRows(period);

    function expectRows(period: { from: string; to: string }) {
      const rows = aggregate(packed, period, now);
      const inPeriod = kept.filter(
        ({ week, lead }) =>
          day(week) + lead.day >= day(period.from) && day(week) + lead.day <= day(period.to),
      );
      const expected = (of: (k: (typeof kept)[number]) => boolean) => {
        const mine = inPeriod.filter(of).map((k) => k.lead);
        const working = mine.flatMap((l) => (l.workingMinutes === null ? [] : [l.workingMinutes]));
        const clock = mine.flatMap((l) => (l.clockMinutes === null ? [] : [l.clockMinutes]));
        return {
          leads: mine.length,
          answered: mine.filter((l) => l.answered).length,
          withinPromise: mine.filter((l) => l.within).length,
          late: mine.filter((l) => l.lateAnswer || (!l.answered && l.dueAt !== null && l.dueAt < now)).length,
          working: working.length === 0 ? null : [disc(working, 0.5), disc(working, 0.9)],
          clock: clock.length === 0 ? null : [disc(clock, 0.5), disc(clock, 0.9)],
        };
      };
      const figures = (r: ResponseRow) => ({
        leads: r.leads,
        answered: r.answered,
        withinPromise: r.withinPromise,
        late: r.late,
        working: r.working,
        clock: r.clock,
      });
      const of = (grouping: number) => rows.filter((r) => r.grouping === grouping);
      expect(of(GROUPING.total).map(figures)).toEqual([expected(() => true)]);
      expect(of(GROUPING.week).map((r) => r.week)).toEqual(
        mondays.filter((m) => day(m) + 6 >= day(period.from) && day(m) <= day(period.to)),
      );
      for (const r of of(GROUPING.week)) expect(figures(r)).toEqual(expected((k) => k.week === r.week));
      for (const r of of(GROUPING.kind)) expect(figures(r)).toEqual(expected((k) => k.kind === r.kind));
      expect(of(GROUPING.owner)).toHaveLength(3);
      for (const r of of(GROUPING.owner))
        expect(figures(r)).toEqual(expected((k) => k.lead.ownerId === r.ownerId));
      // A channel the report does not know counts as no known channel.
      const known = (c: string | null) => (c === "Paid Search" || c === "Direct" ? c : null);
      expect(of(GROUPING.channel)).toHaveLength(3);
      for (const r of of(GROUPING.channel))
        expect(figures(r)).toEqual(expected((k) => known(k.lead.channel) === r.channel));
      expect(
        of(GROUPING.campaign)
          .map((r) => r.campaign)
          .sort(),
      ).toEqual(["c0", "c1", "c2"]);
      for (const r of of(GROUPING.campaign))
        expect(figures(r)).toEqual(expected((k) => k.lead.campaign === r.campaign));
    }
  });

  it("a period without leads has only an empty total", () => {
    const rows = aggregate([], { from: "2026-03-02", to: "2026-03-08" }, now);
    expect(rows).toEqual([expect.objectContaining({ grouping: GROUPING.total, leads: 0, working: null })]);
  });
});
