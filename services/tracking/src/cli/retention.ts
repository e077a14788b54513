// `npm run tracking:retention`: the retention pass now (the service also runs it daily): drops the
// months of page views older than the retention, trims the month the cutoff falls in, and prints
// what went, with the visit profiles and breakdown values no day kept uses any more.
import { systemClock } from "../domain/clock";
import { dutchDay } from "../domain/periods";
import { runRetention } from "../domain/retention";
import { Partitions } from "../repositories/partitions";
import { openCliDatabase } from "./database";

async function main(): Promise<void> {
  const { pool, retentionMonths } = await openCliDatabase("tracking-retention");
  try {
    const started = performance.now();
    const report = await runRetention(pool, new Partitions(pool), systemClock, retentionMonths);
    const ms = Math.round(performance.now() - started);
    const months =
      report.droppedMonths.length > 0 ? report.droppedMonths.map((m) => m.slice(0, 7)).join(", ") : "geen";
    console.log(`Bewaartermijn ${retentionMonths} maanden: alles vanaf ${dutchDay(report.keepFrom)} blijft.`);
    console.log(`Verwijderde maanden: ${months}.`);
    console.log(
      `Uit de grensmaand: ${report.trimmedPageViews} paginaweergaven en ${report.trimmedVisitors} bezoekersdagen; ` +
        `${report.rollupRows} samenvattingsrijen.`,
    );
    console.log(
      `Niet meer gebruikt: ${report.prunedProfiles} bezoekprofielen en ${report.prunedValues} waarden ` +
        `(bron, campagne, verwijzer, ...). Klaar in ${ms} ms.`,
    );
  } finally {
    await pool.end();
  }
}

main().catch((err: Error) => {
  console.error(`Bewaartermijn toepassen mislukt: ${err.message}`);
  process.exit(2);
});
