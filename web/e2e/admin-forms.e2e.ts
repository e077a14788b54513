// Admin forms as a screen reader hears them: each error message tied to its
// field and announced.
import type { Locator, Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { openTab } from "./admin/helpers";
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
