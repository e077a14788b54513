// The public site's quote and contact forms: their client messages, the honeypot, a request sent
// and confirmed, a failure and a field the server refuses said in Dutch, the visitor id sent with
// consent, and what was typed before the page hydrated.
import type { Page } from "@playwright/test";
import { assert, assertEqual, waitFor, isApiRequest, test } from "./fixtures";
import { expectNotice } from "./admin/helpers";

const FALLBACK =
  "Er is een onverwachte fout opgetreden. Probeer het opnieuw of neem contact op via telefoon.";

async function fillValid(page: Page) {
  const form = page.locator("#aanvraag");
  // The submit button is disabled until the form has hydrated (each page section hydrates on its
  // own); what is typed earlier is adopted then (see the test on early input below).
  await waitFor(() => form.locator('button[type="submit"]').isEnabled(), 15_000, "the form hydrated");
  await form.getByLabel("Link naar de auto").fill("https://www.autoscout24.nl/aanbod/volkswagen-id4");
  await form.getByLabel("Telefoonnummer").fill("06 12345678");
  await form.getByLabel("E-mailadres").fill("jan@bedrijf.nl");
  await form.getByLabel("Bedrijfsnaam (optioneel)").fill("Jansen Installatie BV");
  await form.getByLabel("Gewenste looptijd (optioneel)").selectOption("48");
  await form.getByLabel("Bericht (optioneel)").fill("Graag een offerte met 10% aanbetaling.");
}

async function notice(page: Page) {
  const box = page.getByTestId("notice");
  await box.waitFor();
  return { text: await box.innerText(), variant: await box.getAttribute("data-variant") };
}

test("the quote form shows the client messages of the spec", async ({ site: t }) => {
  const { page } = await t.open("/");
  const form = page.locator("#aanvraag");
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  assertEqual(
    await form.getByRole("alert").innerText(),
    "Vul alle verplichte velden in",
    "required fields message",
  );
  const focused = () => page.evaluate(() => document.activeElement?.id);
  assertEqual(await focused(), "aanvraag-auto", "the cursor goes to the first empty required field");
  await form.getByLabel("Link naar de auto").fill("geen-url");
  await form.getByLabel("Telefoonnummer").fill("0612");
  await form.getByLabel("E-mailadres").fill("jan@");
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  const text = await form.innerText();
  for (const message of [
    "Voer een geldige auto URL in",
    "Voer een geldig telefoonnummer in",
    "Voer een geldig e-mailadres in",
  ]) {
    assert(text.includes(message), `missing "${message}"`);
  }
  assertEqual(await form.getByLabel("Telefoonnummer").getAttribute("aria-invalid"), "true", "aria-invalid");
  assertEqual(await focused(), "aanvraag-auto", "the cursor goes to the first field in error");
  await form.getByLabel("Link naar de auto").fill("https://www.autoscout24.nl/aanbod/skoda-enyaq");
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  assertEqual(await focused(), "aanvraag-telefoon", "then to the next field in error");
  const options = await form.getByLabel("Gewenste looptijd (optioneel)").locator("option").allInnerTexts();
  assertEqual(
    options,
    ["Kies een looptijd", "24 maanden", "36 maanden", "48 maanden", "60 maanden"],
    "term options",
  );
  await form.getByRole("button", { name: "Reset" }).click();
  assertEqual(await form.getByLabel("Link naar de auto").inputValue(), "", "reset clears the form");
});

test("the honeypot field is invisible to people and screen readers", async ({ site: t }) => {
  const { page } = await t.open("/");
  const honeypot = page.locator('#aanvraag input[name="website"]');
  assertEqual(await honeypot.getAttribute("tabindex"), "-1", "tabindex");
  assertEqual(await honeypot.getAttribute("autocomplete"), "off", "autocomplete");
  assertEqual(await honeypot.locator("xpath=..").getAttribute("aria-hidden"), "true", "aria-hidden wrapper");
  const box = await honeypot.boundingBox();
  assert(box === null || box.x + box.width < 0, "honeypot is off-screen");
});

test("a valid quote request is sent, confirmed and can be followed by a new one", async ({ site: t }) => {
  const { page } = await t.open("/");
  await fillValid(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((done) => (release = done));
  await page.route("**/api/lease-requests", async (route) => {
    await held;
    await route.continue();
  });
  const button = page.locator("#aanvraag").getByRole("button", { name: /Versturen/ });
  await button.click();
  await waitFor(
    async () => (await button.innerText()) === "Versturen..." && (await button.isDisabled()),
    5000,
    "sending state",
  );
  release();
  await page.getByTestId("aanvraag-succes").waitFor();
  const shown = await notice(page);
  assert(shown.text.includes("Aanvraag Succesvol Verzonden!"), `notice: ${shown.text}`);
  assert(shown.text.includes("24 uur"), "success text mentions 24 hours");
  if (t.sql) {
    const rows = await waitFor(
      () =>
        t.sql!(
          "SELECT car_url, contact_number, company_name, lease_term, message FROM leads.lease_requests WHERE email = $1",
          ["jan@bedrijf.nl"],
        ),
      5000,
      "the lead in the database",
    ).then((r) => (r.length ? r : []));
    assert(rows.length >= 1, "the lead is stored");
    assertEqual(
      rows.at(-1),
      {
        car_url: "https://www.autoscout24.nl/aanbod/volkswagen-id4",
        contact_number: "06 12345678",
        company_name: "Jansen Installatie BV",
        lease_term: 48,
        message: "Graag een offerte met 10% aanbetaling.",
      },
      "stored lead",
    );
  }

  await page.getByRole("button", { name: "Nieuwe Aanvraag" }).click();
  assertEqual(
    await page.locator("#aanvraag").getByLabel("Link naar de auto").inputValue(),
    "",
    "empty form again",
  );
});

test('a failed request shows "Fout bij Versturen" with the server message, or the fallback', async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  await fillValid(page);
  await page.route("**/api/lease-requests", (route) =>
    route.fulfill({
      status: 503,
      json: { code: "service_unavailable", message: "Tijdelijk niet beschikbaar" },
    }),
  );
  await page.locator("#aanvraag").getByRole("button", { name: "Aanvraag Versturen" }).click();
  const first = await notice(page);
  assertEqual(first.variant, "destructive", "variant");
  assert(
    first.text.includes("Fout bij Versturen") && first.text.includes("Tijdelijk niet beschikbaar"),
    first.text,
  );
  assert(await page.locator("#aanvraag").getByLabel("Link naar de auto").isVisible(), "stays in editing");

  await page.unroute("**/api/lease-requests");
  await page.route("**/api/lease-requests", (route) => route.abort("connectionrefused"));
  await page.locator("#aanvraag").getByRole("button", { name: "Aanvraag Versturen" }).click();
  await waitFor(async () => (await notice(page)).text.includes(FALLBACK), 5000, "fallback text");
  assertEqual(await page.getByTestId("notice").count(), 1, "one notice at a time");
});

test("the contact form posts name, e-mail, phone, message and the honeypot", async ({ site: t }) => {
  const { page } = await t.open("/");
  const form = page.locator("#contact form");
  await form.getByRole("button", { name: "Bericht Versturen" }).click();
  assert((await form.innerText()).includes("Naam is verplicht"), "name required");
  await form.getByLabel("Naam").fill("Petra de Vries");
  await form.getByLabel("E-mailadres").fill("petra@devries.nl");
  await form.getByLabel("Telefoonnummer (optioneel)").fill("+31 6 1234 5678");
  await form.getByLabel("Bericht").fill("Kunt u mij terugbellen over fleet management?");
  const posted = page.waitForRequest((request) => isApiRequest(request, "/api/contact"));
  await form.getByRole("button", { name: "Bericht Versturen" }).click();
  assertEqual(
    (await posted).postDataJSON(),
    {
      name: "Petra de Vries",
      email: "petra@devries.nl",
      phone: "+31 6 1234 5678",
      message: "Kunt u mij terugbellen over fleet management?",
      website: "",
    },
    "contact body",
  );
  assert((await notice(page)).text.includes("Bericht Verzonden"), "contact confirmation");
  if (t.sql) {
    const rows = await t.sql("SELECT name, phone FROM leads.contact_messages WHERE email = $1", [
      "petra@devries.nl",
    ]);
    assertEqual(rows.at(-1), { name: "Petra de Vries", phone: "+31 6 1234 5678" }, "stored contact message");
  }
});

test("with analytics consent the contact form also sends the visitor id the browser keeps, for the lead's attribution", async ({
  site: t,
}) => {
  const { page } = await t.open("/", { consent: { analytics: true, marketing: false } });
  const stored = await waitFor(
    () => page.evaluate(() => window.localStorage.getItem("visitor-session")),
    5000,
    "the visitor id stored",
  );
  const form = page.locator("#contact form");
  await form.getByLabel("Naam").fill("Karin Jansen");
  await form.getByLabel("E-mailadres").fill("karin@jansen.nl");
  await form.getByLabel("Bericht").fill("Graag meer informatie over operationele lease.");
  const posted = page.waitForRequest((request) => isApiRequest(request, "/api/contact"));
  await form.getByRole("button", { name: "Bericht Versturen" }).click();
  assertEqual((await posted).postDataJSON().sessionId, stored, "the session id sent with the form");
  assert((await notice(page)).text.includes("Bericht Verzonden"), "contact confirmation");
});

test("what a visitor typed before the page hydrated is kept and sent", async ({ site: t }) => {
  let release: () => void = () => undefined;
  const scripts = new Promise<void>((done) => (release = done));
  const { page } = await t.open("/", { holdScriptsUntil: scripts });
  const form = page.locator("#aanvraag");
  const submit = form.getByRole("button", { name: "Aanvraag Versturen" });
  await form.getByLabel("Link naar de auto").waitFor();
  assert(await submit.isDisabled(), "the submit button waits for the scripts");
  await form.getByLabel("Link naar de auto").fill("https://www.marktplaats.nl/a/auto-s/skoda-enyaq");
  await form.getByLabel("Telefoonnummer").fill("06 87654321");
  await form.getByLabel("E-mailadres").fill("vroeg@bedrijf.nl");
  await form.getByLabel("Gewenste looptijd (optioneel)").selectOption("36");
  await page.locator("#contact form").getByLabel("Naam").fill("Vroege Vogel");

  release();
  await waitFor(() => submit.isEnabled(), 15_000, "the form hydrated");
  assertEqual(
    await form.getByLabel("E-mailadres").inputValue(),
    "vroeg@bedrijf.nl",
    "the typed e-mail address is still shown",
  );
  const posted = page.waitForRequest((request) => isApiRequest(request, "/api/lease-requests"));
  await submit.click();
  const body = (await posted).postDataJSON() as Record<string, unknown>;
  assertEqual(
    {
      carUrl: body.carUrl,
      contactNumber: body.contactNumber,
      email: body.email,
      leaseTerm: body.leaseTerm,
    },
    {
      carUrl: "https://www.marktplaats.nl/a/auto-s/skoda-enyaq",
      contactNumber: "06 87654321",
      email: "vroeg@bedrijf.nl",
      leaseTerm: 36,
    },
    "the request carries what was typed before hydration",
  );
  await page.getByTestId("aanvraag-succes").waitFor();
  // The contact form adopted its early input too: only the fields left empty are reported.
  const contact = page.locator("#contact form");
  await contact.getByRole("button", { name: "Bericht Versturen" }).click();
  await waitFor(
    async () => (await contact.innerText()).includes("Voer een geldig e-mailadres in"),
    5000,
    "the contact form checked its fields",
  );
  assert(!(await contact.innerText()).includes("Naam is verplicht"), "the early name counts");
  // Adopted once: a new request starts empty.
  await page.getByRole("button", { name: "Nieuwe Aanvraag" }).click();
  assertEqual(await form.getByLabel("E-mailadres").inputValue(), "", "a new request starts empty");
});

test("seams: a field the server refuses (a message over 5000 characters) is marked at the field too", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  const form = page.locator("#contact form");
  await form.getByLabel("Naam").fill("Petra de Vries");
  await form.getByLabel("E-mailadres").fill("petra@seams-e2e.nl");
  await form.getByLabel("Bericht").fill("x".repeat(5001));
  await form.getByRole("button", { name: "Bericht Versturen" }).click();
  await expectNotice(page, "Fout bij Versturen");
  const message = form.getByLabel("Bericht");
  await waitFor(
    async () => (await message.getAttribute("aria-invalid")) === "true",
    5000,
    "the field is marked",
  );
  assertEqual(await page.locator("#contact-bericht-fout").innerText(), "Maximaal 5000 tekens", "its message");
  assert(await message.evaluate((element) => element === document.activeElement), "the cursor is in it");
  // Correcting the field takes its message away.
  await message.fill("Kunt u mij terugbellen?");
  await page.locator("#contact-bericht-fout").waitFor({ state: "detached" });

  await page.locator("#aanvraag-auto").fill("https://www.autoscout24.nl/aanbod/seams");
  await page.locator("#aanvraag-telefoon").fill("0611223344");
  await page.locator("#aanvraag-email").fill("quote@seams-e2e.nl");
  await page.locator("#aanvraag-bericht").fill("y".repeat(5001));
  await page.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await waitFor(
    async () => (await page.locator("#aanvraag-bericht-fout").count()) === 1,
    5000,
    "the quote's message is marked",
  );
  assertEqual(
    await page.locator("#aanvraag-bericht-fout").innerText(),
    "Maximaal 5000 tekens",
    "its message",
  );
});
