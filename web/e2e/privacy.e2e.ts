// In the browser against the real stack: a quote request sent on the site is found in
// the panel's "Privacy" tab by its address, exported as one file that reads as a document about the
// person (Dutch headings and fields, Dutch dates, no technical rows), erased after
// the confirmation, and then nothing of that address is found any more.
import { readFile } from "node:fs/promises";
import { expectAccessible } from "./axe";
import { ADMIN_USERNAME, assert, assertEqual, test, waitFor } from "./fixtures";
import { dismissNotice, openTab, signIn } from "./admin/helpers";

test("privacy: a quote request found by address, exported as JSON, erased, and then nothing found", async ({
  world,
}) => {
  const email = `Privacy.E2E-${Date.now()}@Klant.nl`;
  const carUrl = `https://www.autoscout24.nl/aanbod/privacy-${Date.now()}`;

  // A visitor sends a quote request on the site.
  const { page: site } = await world.open("/");
  const form = site.locator("#aanvraag");
  await waitFor(() => form.locator('button[type="submit"]').isEnabled(), 15_000, "the form hydrated");
  await form.getByLabel("Link naar de auto").fill(carUrl);
  await form.getByLabel("Telefoonnummer").fill("06 12345678");
  await form.getByLabel("E-mailadres").fill(email);
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await site.getByTestId("aanvraag-succes").waitFor({ timeout: 30_000 });
  // The mailer logs it in the inbox too (the search below should count that as well).
  await waitFor(
    async () =>
      (
        await world.sql.query(
          "SELECT 1 FROM mailer.email_messages WHERE lower(sender_email) = lower($1) OR lower(recipient_email) = lower($1)",
          [email],
        )
      ).rowCount === 1,
    15_000,
    "the quote in the inbox",
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
  await found.getByRole("row", { name: /Ontvangen e-mails \(van de persoon\) 1/ }).waitFor();
  // The summary speaks of the person's data, not of the system's queues.
  assert(!(await found.innerText()).includes("wachtrij"), "no queue rows in the summary");
  await expectAccessible(page, "Privacy with what is held about an address");

  // Export: one JSON file that holds the request as submitted.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Exporteren (JSON)" }).click(),
  ]);
  assert(/^persoonsgegevens-\d{4}-\d{2}-\d{2}\.json$/.test(download.suggestedFilename()), "the file's name");
  const raw = await readFile((await download.path())!, "utf8");
  const file = JSON.parse(raw) as Record<string, unknown> & {
    Persoonsgegevens: string;
    "Opgesteld op": string;
    Offerteaanvragen: Record<string, unknown>[];
  };
  assertEqual(file.Persoonsgegevens, email.toLowerCase(), "the document's address");
  for (const heading of ["Offerteaanvragen", "Contactberichten", "E-mails", "Notities", "Statuswijzigingen"])
    assert(Array.isArray(file[heading]), `the document has a "${heading}" section`);
  assertEqual(file.Offerteaanvragen.length, 1, "the document's quote requests");
  const request = file.Offerteaanvragen[0]!;
  assertEqual(request["Link naar de auto"], carUrl, "the exported request's car link");
  assertEqual(request["E-mailadres"], email, "the exported request's address as sent");
  assertEqual(request.Telefoonnummer, "06 12345678", "the exported request's phone number");
  assertEqual(request.Status, "Nieuw", "the request's status in Dutch");
  const dutchDate =
    /^\d{1,2} (januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december) \d{4} \d{2}:\d{2}$/;
  assert(
    dutchDate.test(String(request["Ontvangen op"])),
    `a Dutch date, got ${String(request["Ontvangen op"])}`,
  );
  assert(dutchDate.test(file["Opgesteld op"]), `the document's date in Dutch, got ${file["Opgesteld op"]}`);
  // Nothing a person cannot read: no stored column names, ids, hashes or queue rows.
  for (const technical of ["car_url", "email_key", "phone_key", "outbox", "dedupe_key", "session_key"])
    assert(!raw.includes(technical), `no "${technical}" in the document`);
  assert(
    !/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.test(raw),
    "no internal ids in the document",
  );
  await page.getByRole("status").filter({ hasText: "De gegevens zijn geëxporteerd" }).waitFor();

  // Erase: a confirmation first; cancelling keeps everything.
  await page.getByRole("button", { name: "Wissen", exact: true }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByText("definitief verwijderd").waitFor();
  await expectAccessible(page, "Privacy's erasure confirmation");
  // The keyboard is in the confirmation at once, on its safe choice; Escape cancels it (34.12).
  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
  await waitFor(
    async () => (await focused()) === "Annuleren",
    5000,
    "the focus on Annuleren in the confirmation",
  );
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await waitFor(
    () =>
      page.getByRole("button", { name: "Wissen", exact: true }).evaluate((b) => b === document.activeElement),
    5000,
    "the focus back on Wissen",
  );
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
