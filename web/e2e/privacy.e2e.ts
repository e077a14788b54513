// Issue 19.5 in the browser against the real stack: a quote request sent on the site is found in
// the panel's "Privacy" tab by its address, exported as one JSON file that holds it, erased after
// the confirmation, and then nothing of that address is found any more.
import { readFile } from "node:fs/promises";
import { expectAccessible } from "./axe";
import { ADMIN_USERNAME, assert, assertEqual, test, waitFor } from "./fixtures";
import { dismissNotice, openTab, signIn } from "./admin/helpers";

/** Polls `check` until it holds (the old runner's helper, on the kit's waitFor). */
const eventually = (check: () => unknown, what: string, ms = 5000) => waitFor(check, ms, what);

test("privacy: a quote request found by address, exported as JSON, erased, and then nothing found", async ({
  world,
}) => {
  const email = `Privacy.E2E-${Date.now()}@Klant.nl`;
  const carUrl = `https://www.autoscout24.nl/aanbod/privacy-${Date.now()}`;

  // A visitor sends a quote request on the site.
  const { page: site } = await world.open("/");
  const form = site.locator("#aanvraag");
  await eventually(() => form.locator('button[type="submit"]').isEnabled(), "the form hydrated", 15_000);
  await form.getByLabel("Link naar de auto").fill(carUrl);
  await form.getByLabel("Telefoonnummer").fill("06 12345678");
  await form.getByLabel("E-mailadres").fill(email);
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await site.getByTestId("aanvraag-succes").waitFor({ timeout: 10_000 });
  // The mailer logs it in the inbox too (the search below should count that as well).
  await eventually(
    async () =>
      (
        await world.sql.query(
          "SELECT 1 FROM mailer.email_messages WHERE lower(sender_email) = lower($1) OR lower(recipient_email) = lower($1)",
          [email],
        )
      ).rowCount === 1,
    "the quote in the inbox",
    15_000,
  );

  // The admin finds it by address, in other letter case and with spaces around it.
  const { page } = await world.open("/admin-login");
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.getByTestId("welkom").waitFor();
  await dismissNotice(page);
  await openTab(page, "Privacy");
  const field = page.getByLabel("E-mailadres");
  await field.fill("geen adres");
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  await page.getByText("Voer een geldig e-mailadres in").waitFor();
  await field.fill(`  ${email.toUpperCase()} `);
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  const found = page.locator("section[aria-labelledby='privacy-resultaat']");
  await found.getByRole("row", { name: /Offerteaanvragen 1/ }).waitFor();
  await found.getByRole("row", { name: /E-mails in de inbox 1/ }).waitFor();
  await expectAccessible(page, "Privacy with what is held about an address");

  // Export: one JSON file that holds the request as submitted.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Exporteren (JSON)" }).click(),
  ]);
  assert(/^persoonsgegevens-\d{4}-\d{2}-\d{2}\.json$/.test(download.suggestedFilename()), "the file's name");
  const file = JSON.parse(await readFile((await download.path())!, "utf8")) as {
    email: string;
    data: { leaseRequests: { email: string; car_url: string }[] };
  };
  assertEqual(file.email, email.toLowerCase(), "the export's address");
  assertEqual(file.data.leaseRequests.length, 1, "the export's quote requests");
  assertEqual(file.data.leaseRequests[0]!.car_url, carUrl, "the exported request's car link");
  assertEqual(file.data.leaseRequests[0]!.email, email, "the exported request's address as sent");
  await page.getByRole("status").filter({ hasText: "De gegevens zijn geëxporteerd" }).waitFor();

  // Erase: a confirmation first; cancelling keeps everything.
  await page.getByRole("button", { name: "Wissen", exact: true }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByText("definitief verwijderd").waitFor();
  await expectAccessible(page, "Privacy's erasure confirmation");
  await dialog.getByRole("button", { name: "Annuleren" }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Wissen", exact: true }).click();
  await dialog.getByRole("button", { name: "Ja, definitief wissen" }).click();
  await page.getByRole("status").filter({ hasText: "Gewist:" }).waitFor();
  await found.getByText("Niets gevonden over dit e-mailadres.").waitFor();

  // A new search finds nothing; the database holds nothing of it.
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  await found.getByText("Niets gevonden over dit e-mailadres.").waitFor();
  const left = await world.sql.query(
    `SELECT (SELECT count(*) FROM leads.lease_requests WHERE lower(email) = lower($1))
          + (SELECT count(*) FROM mailer.email_messages WHERE lower(sender_email) = lower($1) OR lower(recipient_email) = lower($1))
          + (SELECT count(*) FROM mailer.outgoing_emails WHERE position(lower($1) in lower(text_body)) > 0) AS n`,
    [email],
  );
  assertEqual(Number(left.rows[0]!.n), 0, "rows left of the address");

  // The audit log names the erasure and the export, not the address.
  await openTab(page, "Logboek");
  await page.getByRole("cell", { name: "Gegevens van een persoon gewist" }).first().waitFor();
  await page.getByRole("cell", { name: "Gegevens van een persoon geëxporteerd" }).first().waitFor();
  const log = await page.locator("#tab-inhoud").innerText();
  assert(!log.toLowerCase().includes(email.toLowerCase()), "the audit log never shows the address");
});
