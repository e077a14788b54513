#!/usr/bin/env node
// Generated page-view history for the analytics benchmark: realistic enough in shape (weekdays,
// office hours, visits of a few pages, search and social referrers, a long tail of articles) and
// the same on every run. As a command it writes NDJSON for `npm run tracking:import`:
//   node loadtests/history-generator.mjs 1000000 > history.ndjson   (26 months up to now)
const DAY = 86_400_000;

/** Deterministic pseudo-random numbers (xorshift32), so every run imports the same history. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

const SITE = [
  ["/", 30],
  ["/financiele-lease", 14],
  ["/operationele-lease", 11],
  ["/zakelijke-lease", 11],
  ["/fleet-management", 6],
  ["/over-ons", 5],
  ["/voorwaarden", 1],
  ["/privacy-beleid", 1],
  ["/cookie-beleid", 1],
];
const SITE_TOTAL = SITE.reduce((n, [, w]) => n + w, 0);
const CAMPAIGNS = ["najaar", "voorjaar", "elektrisch", "bestelwagen", "zzp", "merk"];
const ymdOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const REFERRERS = [
  "https://www.google.com/",
  "https://www.google.nl/",
  "https://www.bing.com/",
  "https://www.facebook.com/",
  "",
];
const HOURS = [1, 1, 1, 1, 1, 2, 4, 7, 10, 12, 12, 11, 10, 11, 12, 12, 11, 9, 8, 8, 7, 5, 3, 2];
const HOURS_TOTAL = HOURS.reduce((a, b) => a + b, 0);

function pick(random, list, total) {
  let r = random() * total;
  for (const [value, weight] of list) if ((r -= weight) < 0) return value;
  return list[0][0];
}

/**
 * `count` page views over the 26 months, in time order day by day: weekdays busier than weekends,
 * office hours busier than nights, visits of 1-8 pages a few minutes apart, 3 % of pages from a
 * long tail of 400 articles, a third of visits from search or social.
 */
export function* history(count, step, { start, end }) {
  const DAYS = Math.floor((end - start) / DAY);
  const historyStart = start;
  const now = end;
  const random = rng(step * 7919 + 13);
  const weights = Array.from({ length: DAYS }, (_, d) => {
    const weekday = new Date(historyStart + d * DAY).getUTCDay();
    return (weekday === 0 || weekday === 6 ? 0.6 : 1.15) * (0.8 + (0.4 * d) / DAYS);
  });
  const total = weights.reduce((a, b) => a + b, 0);
  let made = 0;
  let carry = 0;
  for (let d = 0; d < DAYS; d++) {
    const exact = (count * weights[d]) / total + carry;
    let quota = d === DAYS - 1 ? count - made : Math.floor(exact);
    carry = exact - quota;
    const dayStart = historyStart + d * DAY;
    const day = [];
    let visit = 0;
    while (quota > 0) {
      const pages = Math.min(quota, 1 + Math.floor(-Math.log(1 - random()) * 2));
      let hour = 0;
      for (let r = random() * HOURS_TOTAL; (r -= HOURS[hour]) >= 0 && hour < 23;) hour++;
      let at = dayStart + hour * 3_600_000 + Math.floor(random() * 3_600_000);
      const session = `h${step}-${d}-${visit++}`;
      let referrer = REFERRERS[Math.floor(random() * REFERRERS.length * 1.5)] ?? "";
      // One visit in ten comes from a campaign: search ads (with a click id) or the newsletter.
      const tagged = random();
      const campaign =
        tagged < 0.08
          ? `utm_source=google&utm_medium=cpc&utm_campaign=${CAMPAIGNS[Math.floor(random() * CAMPAIGNS.length)]}&gclid=g${visit}`
          : tagged < 0.1
            ? `utm_source=nieuwsbrief&utm_medium=email&utm_campaign=${ymdOf(dayStart).slice(0, 7)}`
            : "";
      if (campaign && tagged < 0.08) referrer = "https://www.google.com/";
      for (let p = 0; p < pages && at < now; p++) {
        const page =
          random() < 0.03 ? `/artikel/${Math.floor(random() * 400)}` : pick(random, SITE, SITE_TOTAL);
        day.push({
          at,
          session,
          page: p === 0 && campaign ? `${page}?${campaign}` : page,
          referrer: p === 0 ? referrer : "",
        });
        quota--;
        at += 20_000 + Math.floor(random() * 120_000);
      }
      if (at >= now) quota = 0;
    }
    // In time order, as an analytics export lists its events.
    day.sort((a, b) => a.at - b.at);
    for (const e of day) {
      yield {
        id: `h${step}-${made++}`,
        at: new Date(e.at).toISOString(),
        session: e.session,
        page: e.page,
        referrer: e.referrer,
      };
    }
  }
}

/** 26 months back from `now`, as the retention keeps. */
export function retentionWindow(now = Date.now(), months = 26) {
  const start = new Date(now);
  start.setUTCMonth(start.getUTCMonth() - months);
  start.setUTCDate(start.getUTCDate() + 1);
  start.setUTCHours(0, 0, 0, 0);
  return { start: start.getTime(), end: now };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 1_000_000);
  let chunk = "";
  for (const line of history(count, 1, retentionWindow())) {
    chunk += `${JSON.stringify(line)}\n`;
    if (chunk.length > 1 << 16) {
      if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once("drain", r));
      chunk = "";
    }
  }
  process.stdout.write(chunk);
}
