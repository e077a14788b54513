// Google Ads in the panel against the real stack: the Pixels tab downloads the
// offline conversion file (Google's click conversions template, holding a consented lead's gclid),
// makes a secret URL that answers the same file without a cookie, and a new URL ends the old one.
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { assert, assertEqual, test } from "./fixtures";
import { openTab, postLead } from "./admin/helpers";

/** Makes a new secret URL in the panel (confirming when one exists) and answers the URL it shows once. */
async function makeSecretUrl(page: Page): Promise<string> {
  const replace = page.getByRole("button", { name: "Nieuwe geheime link maken" });
  if (await replace.isVisible()) {
    // The panel asks first: the current URL stops working.
    page.once("dialog", (dialog) => void dialog.accept());
    await replace.click();
  } else await page.getByRole("button", { name: "Geheime link maken", exact: true }).click();
  const shown = page.getByTestId("google-ads-nieuwe-link");
  await shown.waitFor();
  const url = await shown.getByLabel("Nieuwe geheime link").inputValue();
  await shown.getByRole("button", { name: "Sluiten" }).click();
  await shown.waitFor({ state: "hidden" });
  return url;
}

test("google ads: the panel downloads the conversion file and makes a secret URL; a new URL ends the old one", async ({
  world,
  signedIn,
}) => {
  const gclid = `Cj0KCQ-e2e-${Date.now()}`;
  await postLead(world, {
    email: `google-${Date.now()}@e2e.nl`,
    marketingConsent: true,
    clickIds: { gclid },
  });
  const { page } = signedIn;
  await openTab(page, "Social Media Pixels");
  await page.getByRole("heading", { name: "Google Ads" }).waitFor();

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Conversiebestand downloaden (CSV)" }).click(),
  ]);
  assertEqual(download.suggestedFilename(), "google-ads-conversies.csv", "the file's name");
  const csv = await readFile((await download.path())!, "utf8");
  const lines = csv.split("\r\n");
  assertEqual(lines[0], "Parameters:TimeZone=Europe/Amsterdam", "the time zone line");
  assertEqual(
    lines[1],
    "Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,Ad User Data,Ad Personalization",
    "the template's columns",
  );
  const row = lines.find((line) => line.startsWith(`${gclid},`));
  assert(
    row !== undefined &&
      /^[^,]+,,,Offerteaanvraag,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},,EUR,Granted,Granted$/.test(row),
    `the lead's row, got ${row}`,
  );

  const first = await makeSecretUrl(page);
  assert(first.startsWith(`${world.baseUrl}/api/google-ads/conversions/`), `a URL on the site, got ${first}`);
  const fetched = await fetch(first);
  assertEqual(fetched.status, 200, "the secret URL answers without a cookie");
  assert((await fetched.text()).includes(`${gclid},,,Offerteaanvraag,`), "the same file at the secret URL");
  await page
    .getByTestId("google-ads-link-status")
    .getByText(/Er is een geheime link, gemaakt op/)
    .waitFor();
  await expectAccessible(page, "Pixels tab with the Google Ads section");

  const second = await makeSecretUrl(page);
  assert(second !== first, "a new URL");
  assertEqual((await fetch(first)).status, 404, "the old URL is gone at once");
  assertEqual((await fetch(second)).status, 200, "the new URL works");
});
