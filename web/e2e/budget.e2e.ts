// What a visitor's browser downloads of JavaScript on the landing pages: at most 100 KB gzipped,
// and none of the admin app's code (its pages, react-router, react-query, the contracts' zod
// schemas). The public pages hydrate only their islands (README.md, "two apps"); one import of the wrong
// module into one of them brings the regression back, and this test fails.
import { gzipSync } from "node:zlib";
import type { Response } from "@playwright/test";
import { assert, test } from "./fixtures";

const BUDGET_KB = 100;

/** Text only code of that library holds (error messages kept by minification). */
const FOREIGN: Record<string, RegExp> = {
  "the admin app": /Admin(Dashboard|Login)Page|EmailComposePage/,
  "react-router": /useNavigate\(\) may be used only in the context of a <Router>/,
  "react-query": /No QueryClient set/,
  zod: /["'`]ZodError["'`]/,
};

for (const path of ["/", "/financiele-lease"]) {
  test(`${path} loads at most ${BUDGET_KB} KB of JavaScript (gzipped) and no admin code`, async ({
    site: t,
  }) => {
    const { page } = await t.open("about:blank", { consent: "none" });
    const scripts: Response[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response);
    });
    await page.goto(new URL(path, t.baseUrl).href);
    await page.waitForLoadState("networkidle");
    // The islands are hydrated (the cookie banner is the last of them to show).
    await page.getByRole("dialog", { name: "Wij gebruiken cookies" }).waitFor();

    let total = 0;
    const sizes: string[] = [];
    for (const response of scripts) {
      const code = await response.body();
      const gzipped = gzipSync(code, { level: 9 }).length;
      total += gzipped;
      const name = new URL(response.url()).pathname;
      sizes.push(`${name} ${(gzipped / 1024).toFixed(1)} KB`);
      for (const [what, signature] of Object.entries(FOREIGN)) {
        assert(!signature.test(`${name}\n${code.toString("utf8")}`), `${path} loads ${what}: ${name}`);
      }
    }
    assert(scripts.length > 0, `${path}: no script seen`);
    const kb = total / 1024;
    assert(
      kb <= BUDGET_KB,
      `${path} loads ${kb.toFixed(1)} KB of JavaScript gzipped, over ${BUDGET_KB} KB: ${sizes.join(", ")}`,
    );
  });
}
