// Quote form friction and focus after "Nieuwe Aanvraag", on the real stack.
import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, DESKTOP, MOBILE, test } from "./fixtures";

/** The thanks panel from its check icon down to its heading in view, below the sticky header. */
async function thanksInView(page: Page, viewportHeight: number) {
  const panel = page.getByTestId("aanvraag-succes");
  const heading = page.getByRole("heading", { name: "Bedankt voor uw aanvraag!" });
  await heading.waitFor({ timeout: 10_000 });
  await waitFor(
    async () => {
      const [icon, box, header] = await Promise.all([
        panel.boundingBox(),
        heading.boundingBox(),
        page.locator("header").first().boundingBox(),
      ]);
      return (
        icon && box && header && icon.y >= header.y + header.height && box.y + box.height <= viewportHeight
      );
    },
    5000,
    "the thanks' check icon and heading in view, below the sticky header",
  );
}

async function hydrated(page: Page) {
  const form = page.locator("#aanvraag");
  await waitFor(() => form.locator('button[type="submit"]').isEnabled(), 15_000, "the form hydrated");
  return form;
}

test("a link typed without https:// is accepted and stored with it", async ({ site: t }) => {
  const { page } = await t.open("/");
  const form = await hydrated(page);
  const email = `zonder-schema-${Date.now()}@bedrijf.nl`;
  await form.getByLabel("Link naar de auto").fill("www.autoscout24.nl/aanbod/kia-ev6-e2e");
  await form.getByLabel("Telefoonnummer").fill("06 12345678");
  await form.getByLabel("E-mailadres").fill(email);
  assertEqual(
    await form.getByLabel("Link naar de auto").inputValue(),
    "https://www.autoscout24.nl/aanbod/kia-ev6-e2e",
    "the field shows the link with https:// once left",
  );
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await thanksInView(page, DESKTOP.height);
  if (t.sql) {
    const row = await waitFor(
      async () => (await t.sql!("SELECT car_url FROM leads.lease_requests WHERE email = $1", [email]))[0],
      5000,
      "the lead in the database",
    );
    assertEqual(row?.car_url, "https://www.autoscout24.nl/aanbod/kia-ev6-e2e", "stored link");
  }
});

test("an empty submit marks each required field, and a field's message goes once it is corrected", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  const form = await hydrated(page);
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  assertEqual(await form.getByRole("alert").innerText(), "Vul alle verplichte velden in", "form message");
  for (const label of ["Link naar de auto", "Telefoonnummer", "E-mailadres"]) {
    const field = form.getByLabel(label);
    assertEqual(await field.getAttribute("aria-invalid"), "true", `${label} marked`);
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    const messageId = describedBy.split(" ").find((id) => id.endsWith("-fout"));
    assert(messageId, `${label} names its message`);
    assertEqual(await page.locator(`#${messageId}`).innerText(), "Dit veld is verplicht", `${label} message`);
  }
  assertEqual(
    await form.getByLabel("Bedrijfsnaam (optioneel)").getAttribute("aria-invalid"),
    "false",
    "optional",
  );

  await form.getByLabel("Telefoonnummer").fill("0612");
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await form.getByText("Voer een geldig telefoonnummer in").waitFor();
  await form.getByLabel("Telefoonnummer").fill("0612345678");
  assertEqual(
    await form.getByLabel("Telefoonnummer").getAttribute("aria-invalid"),
    "false",
    "the corrected field is no longer marked",
  );
  assertEqual(await form.getByText("Voer een geldig telefoonnummer in").count(), 0, "its message is gone");
  assertEqual(
    await form.getByLabel("E-mailadres").getAttribute("aria-invalid"),
    "true",
    "the other fields keep theirs",
  );
});

test("on a phone the thanks is shown below the sticky header from its check icon, and Nieuwe Aanvraag puts focus in the form", async ({
  site: t,
}) => {
  const { page } = await t.open("/#aanvraag", { viewport: MOBILE });
  const form = await hydrated(page);
  await form.getByLabel("Link naar de auto").fill("https://www.autoscout24.nl/aanbod/mobiel-e2e");
  await form.getByLabel("Telefoonnummer").fill("06 12345678");
  await form.getByLabel("E-mailadres").fill("mobiel@bedrijf.nl");
  await form.getByLabel("Bericht (optioneel)").fill("Een wat langer bericht.\n".repeat(8));
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await thanksInView(page, MOBILE.height);
  assertEqual(
    await page.evaluate(() => document.activeElement?.id),
    "aanvraag-bedankt",
    "focus on the thanks",
  );

  await page.getByRole("button", { name: "Nieuwe Aanvraag" }).click();
  await waitFor(
    () => page.evaluate(() => document.activeElement?.id === "aanvraag-auto"),
    5000,
    "focus in the form's first field",
  );
  const box = await form.getByLabel("Link naar de auto").boundingBox();
  assert(
    box && box.y > 64 && box.y < MOBILE.height,
    `the first field in view below the header (y ${box?.y})`,
  );
});

test("the quote and contact forms say which fields are required: in text, and to screen readers at each field", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  await page.setViewportSize({ width: 390, height: 844 });
  await hydrated(page);
  const forms = [
    {
      form: page.locator("#aanvraag form"),
      legend: "aanvraag-verplicht",
      required: ["Link naar de auto", "Telefoonnummer", "E-mailadres"],
      optional: ["Bedrijfsnaam (optioneel)", "Gewenste looptijd (optioneel)", "Bericht (optioneel)"],
    },
    {
      form: page.locator("#contact form"),
      legend: "contact-verplicht",
      required: ["Naam", "E-mailadres", "Bericht"],
      optional: ["Telefoonnummer (optioneel)"],
    },
  ];
  for (const { form, legend, required, optional } of forms) {
    // The text a sighted visitor reads, and the form's description for one who listens.
    assertEqual(
      (await form.locator(`#${legend}`).innerText()).trim(),
      "Velden met een * zijn verplicht.",
      `${legend} in words`,
    );
    assertEqual(await form.getAttribute("aria-describedby"), legend, `${legend} describes its form`);
    // By the name read out: the label without the hidden *.
    const byName = (name: string) =>
      form.getByRole("textbox", { name, exact: true }).or(form.getByRole("combobox", { name, exact: true }));
    for (const name of required) {
      const field = byName(name);
      assertEqual(await field.getAttribute("aria-required"), "true", `${name}: aria-required`);
      assert(await field.evaluate((el) => (el as HTMLInputElement).required), `${name}: required`);
    }
    for (const name of optional) {
      const field = byName(name);
      assertEqual(await field.getAttribute("aria-required"), null, `${name}: not required`);
    }
  }
  // The keyboard reaches the quote form's first field, which is read as required.
  const first = page.getByRole("textbox", { name: "Link naar de auto", exact: true });
  await first.focus();
  const snapshot = await page.locator("#aanvraag").ariaSnapshot();
  assert(snapshot.includes('textbox "Link naar de auto"'), `the field's name without the *: ${snapshot}`);
  // Sent empty with Enter: the browser's own bubbles stay off (noValidate), the Dutch message shows.
  await page.keyboard.press("Enter");
  await page
    .locator("#aanvraag")
    .getByRole("alert")
    .filter({ hasText: "Vul alle verplichte velden in" })
    .waitFor();
  await page.screenshot({ path: "/tmp/h-a11y/verplicht-aanvraag-390.png" });
  await page.locator("#contact-verplicht").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/h-a11y/verplicht-contact-390.png" });
  await expectAccessible(page, "the forms with their required fields");
});
