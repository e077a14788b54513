import { pathToFileURL } from "node:url";
import { cleanups, registeredTests } from "../harness";

/**
 * Lets an e2e file run on its own (`node --import tsx web/e2e/admin.e2e.ts`): runs the tests it
 * registered, in order, and prints the runner's "N passed, N failed" line. Inside run.mjs it does nothing.
 */
export async function runStandalone(fileUrl: string): Promise<void> {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== fileUrl) return;
  let passed = 0;
  let failed = 0;
  for (const t of registeredTests) {
    const started = Date.now();
    try {
      await t.fn(null as never);
      passed++;
      console.log(`  ✓ ${t.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      console.log(`  ✗ ${t.name}\n      ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const cleanup of cleanups) await cleanup().catch((error) => console.error("cleanup failed:", error));
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}
