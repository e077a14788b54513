// Admin forms as a screen reader hears them: each error message tied to its field and announced,
// and the e-mail status that says it is the saved settings'.
import type { Locator, Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { openTab, saveSettings } from "./admin/helpers";
import { assert, assertEqual, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** The field is marked invalid and names, among what describes it, an announced message with `text`. */
async function tiedError(page: Page, field: Locator, text: string, what: string): Promise<void> {
  assertEqual(await field.getAttribute("aria-invalid"), "true", `${what}: aria-invalid`);
  const ids = ((await field.getAttribute("aria-describedby")) ?? "").split(/\s+/).filter(Boolean);
  const messages = await Promise.all(
    ids.map(async (id) => {
      const el = page.locator(`[id="${id}"]`);
      return (await el.count()) ? { role: await el.getAttribute("role"), text: await el.innerText() } : null;
    }),
  );
  assert(
    messages.some((m) => m?.role === "alert" && m.text.trim() === text),
    `${what}: "${text}" tied by aria-describedby and announced (role=alert), got ${JSON.stringify(messages)}`,
  );
}

test("compose window and settings forms: each message is tied to its field and announced, by keyboard, at 390 px", async ({
  world,
  signedIn,
}) => {
  const compose = await signedIn.context.newPage();
  await compose.setViewportSize(PHONE);
  await compose.goto(`${world.baseUrl}/email-compose`);
  const to = compose.getByLabel("Aan");
  await to.waitFor();
  // The keyboard only: an address without @, no subject, a short message, Enter to send.
  await to.focus();
  await compose.keyboard.type("klant-zonder-apenstaartje");
  await compose.keyboard.press("Tab");
  await compose.keyboard.press("Tab");
  await compose.keyboard.type("kort");
  await to.focus();
  await compose.keyboard.press("Enter");
  await compose.getByRole("alert").filter({ hasText: "Voer een geldig e-mailadres in" }).waitFor();
  await tiedError(compose, to, "Voer een geldig e-mailadres in", "Aan");
  await tiedError(compose, compose.getByLabel("Onderwerp"), "Onderwerp is verplicht", "Onderwerp");
  await tiedError(
    compose,
    compose.getByLabel("Bericht"),
    "Bericht moet minimaal 10 karakters bevatten",
    "Bericht",
  );
  assert(await to.evaluate((el) => el === document.activeElement), "focus on the first field with a message");
  await compose.screenshot({ path: "/tmp/h-a11y/compose-fouten-390.png", fullPage: true });
  await expectAccessible(compose, "the compose window with its messages");
  // Corrected, the field is no longer marked.
  await to.fill("klant@example.nl");
  await compose.getByLabel("Onderwerp").fill("Een onderwerp");
  await compose.getByRole("button", { name: "Verzenden" }).focus();
  await compose.keyboard.press("Enter");
  await compose
    .getByRole("alert")
    .filter({ hasText: "Voer een geldig e-mailadres in" })
    .waitFor({ state: "detached" });
  assertEqual(await to.getAttribute("aria-invalid"), "false", "Aan corrected");
  await compose.close();

  // A settings tab: the server's message at its field (Bedrijfsgegevens' e-mail address).
  const page = signedIn.page;
  await page.setViewportSize(PHONE);
  await openTab(page, "Bedrijfsgegevens");
  await page.getByRole("button", { name: "Bewerken" }).click();
  const email = page.getByLabel("E-mailadres", { exact: true });
  await email.fill("geen-adres");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  const message = page.locator("#company-emailAddress-fout");
  await message.waitFor();
  await tiedError(page, email, (await message.innerText()).trim(), "Bedrijfsgegevens e-mailadres");
  await page.screenshot({ path: "/tmp/h-a11y/bedrijf-fout-390.png", fullPage: true });
  await expectAccessible(page, "Bedrijfsgegevens with a message");
  await page.getByRole("button", { name: "Annuleren" }).click();

  // The sign-in form too.
  const login = await world.open("/admin-login");
  await login.page.setViewportSize(PHONE);
  await login.page.getByRole("button", { name: "Inloggen" }).click();
  await tiedError(
    login.page,
    login.page.getByLabel("Gebruikersnaam"),
    "Gebruikersnaam is verplicht",
    "login",
  );
  await tiedError(login.page, login.page.getByLabel("Wachtwoord"), "Wachtwoord is verplicht", "login");
  await login.page.close();
});

test("E-mail Instellingen: the status is the saved settings'; what is typed and would not work is said under it", async ({
  signedIn,
}) => {
  const page = signedIn.page;
  await saveSettings(page, {
    sendgridApiKey: "SG.formulieren-test-key-abcdefghijklmnop.0123456789",
    fromEmailAddress: "info@formulieren.example.nl",
  });
  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    await page.setViewportSize(viewport);
    await page.reload();
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    await openTab(page, "E-mail Instellingen");
    const status = page.getByTestId("email-settings-status");
    await status.getByText("Volledig geconfigureerd").waitFor();
    await page.getByText("Status van de opgeslagen instellingen:").waitFor();
    assertEqual(await page.getByTestId("email-settings-draft").count(), 0, "nothing unsaved yet");
    // Typed wrong in both fields: the saved status stays, and a line says it would not work.
    await page.getByLabel("SendGrid API key").fill("abc");
    await page.getByLabel("Afzender e-mail").fill("info");
    const draft = page.getByTestId("email-settings-draft");
    await draft.waitFor();
    assertEqual(
      (await draft.innerText()).replace(/\s+/g, " ").trim(),
      "Niet opgeslagen wijzigingen: de status hierboven geldt voor de opgeslagen instellingen. Zo ingevuld werkt het niet: de API key heeft een ongeldig formaat (een SendGrid API key begint met SG.); de afzender e-mail heeft een ongeldig formaat (een e-mailadres bevat een @).",
      "the warning about what is typed",
    );
    assertEqual(
      await draft.locator("xpath=..").getAttribute("role"),
      "status",
      "announced without taking focus",
    );
    await status.getByText("Volledig geconfigureerd").waitFor();
    await page.screenshot({ path: `/tmp/h-a11y/email-status-${viewport.width}.png`, fullPage: true });
    await expectAccessible(page, `E-mail Instellingen with unsaved changes at ${viewport.width} px`);
    // An empty sender: the status it would have.
    await page.getByLabel("SendGrid API key").fill("SG.nieuwe-key-abcdefghijklmnop");
    await page.getByLabel("Afzender e-mail").fill("");
    await draft.getByText("Zo ingevuld werkt het niet: Afzender e-mail ontbreekt.").waitFor();
    // Herstel: back to the saved values, the line goes.
    await page.getByRole("button", { name: "Herstel" }).click();
    await draft.waitFor({ state: "detached" });
  }
});
