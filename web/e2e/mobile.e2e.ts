// At 375 px: the comparison, cost and legal tables are read without scrolling
// sideways; each value keeps its column's name. (The admin's active visitors: live-visitors.e2e.ts.)
import { assert, assertEqual, MOBILE, test } from "./fixtures";

for (const path of ["/financiele-lease", "/operationele-lease", "/privacy-beleid", "/cookie-beleid"]) {
  test(`the tables of ${path} fit a 375 px phone, every value labelled`, async ({ site: t }) => {
    const { page } = await t.open(path, { viewport: MOBILE });
    const tables = page.locator('[role="region"]:has(table)');
    const count = await tables.count();
    assert(count > 0, "a table on the page");
    for (let i = 0; i < count; i++) {
      const table = tables.nth(i);
      const name = await table.getAttribute("aria-label");
      const { scroll, client } = await table.evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
      }));
      assert(scroll <= client, `"${name}" is ${scroll - client}px wider than the screen`);
      const cell = table.locator("td").first();
      const label = await cell.getAttribute("data-label");
      const shown = await cell.evaluate((el) => getComputedStyle(el, "::before").content);
      assertEqual(shown, JSON.stringify(label), `"${name}": a value shows its column name`);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `the page is ${overflow}px too wide`);
  });
}
