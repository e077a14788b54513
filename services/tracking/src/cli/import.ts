// `npm run tracking:import < visits.ndjson`: imports page views of history (format in the README).
// A bad line is reported with its number and skipped, and makes the exit code 1 once everything
// else is in; progress shows on a terminal.
import { importVisits } from "./import-visits";
import { openCliDatabase } from "./database";

async function main(): Promise<number> {
  const { pool, retentionMonths } = await openCliDatabase("tracking-import");
  const tty = process.stderr.isTTY;
  try {
    const summary = await importVisits(pool, process.stdin, {
      retentionMonths,
      report: (message) => process.stderr.write(`${tty ? "\r\x1b[K" : ""}${message}\n`),
      progress: tty
        ? (s, seconds) =>
            process.stderr.write(
              `\r\x1b[K${s.lines.toLocaleString("nl-NL")} regels gelezen, ` +
                `${s.written.toLocaleString("nl-NL")} opgeslagen, ` +
                `${Math.round(s.lines / Math.max(seconds, 0.001)).toLocaleString("nl-NL")} regels/s`,
            )
        : undefined,
    });
    if (tty) process.stderr.write("\r\x1b[K");
    console.log(
      `Klaar: ${summary.lines} regels, ${summary.written} paginaweergaven opgeslagen, ` +
        `${summary.duplicates} waren er al, ${summary.tooOld} ouder dan ${retentionMonths} maanden overgeslagen, ` +
        `${summary.bad} foutief.`,
    );
    return summary.bad > 0 ? 1 : 0;
  } finally {
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`Import mislukt: ${err.message}`);
    process.exit(2);
  },
);
