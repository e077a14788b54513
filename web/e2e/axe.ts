// axe-core in the browser tests: WCAG 2.0-2.2 A and AA rules; a serious or critical violation fails.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** Runs axe on the page as it is now and throws with every serious or critical violation named. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (bad.length === 0) return;
  const lines = bad.map(
    (v) =>
      `${v.id} (${v.impact}, ${v.nodes.length}x): ${v.help}; e.g. ${v.nodes
        .slice(0, 3)
        .map((n) =>
          `${n.target.join(" ")} ${n.failureSummary?.split("\n").slice(1, 2).join("") ?? ""}`.trim(),
        )
        .join(" | ")}`,
  );
  throw new Error(`${what}: ${bad.length} accessibility violation(s)\n        ${lines.join("\n        ")}`);
}
