// The site's settings in the panel, against the real stack: company details (a field the server
// refuses marked at the field) saved and shown in the public footer and title, also at once in the
// same browser; a pixel id saved turns its badge "Actief", a wrong one is refused, Annuleren restores.
import { assert, assertEqual, waitFor, test } from "./fixtures";
import { COMPANY, cachingBrowser, expectNotice, openTab, saveSettings } from "./admin/helpers";

test("admin: company details saved show on the public footer", async ({ world, signedIn }) => {
  const page = signedIn.page;
  await openTab(page, "Bedrijfsgegevens");
  const name = page.getByLabel("Bedrijfsnaam");
  await name.waitFor();
  assert(await name.evaluate((input: HTMLInputElement) => input.readOnly), "read-only until Bewerken");
  await page.getByRole("button", { name: "Bewerken" }).click();
  await name.fill(COMPANY.name);
  await page.getByLabel("Telefoonnummer").fill(COMPANY.phone);
  await page.getByLabel("E-mailadres").fill(COMPANY.email);
  await page.getByLabel("KvK-nummer").fill("123");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  // The server's field message shows next to the field.
  await expectNotice(page, "Fout bij Opslaan");
  const kvkError = page.getByTestId("field-error").filter({ hasText: "KvK-nummer bestaat uit 8 cijfers" });
  await kvkError.waitFor();
  // Still wrong while typing: the message stays; corrected: it goes before saving.
  await page.getByLabel("KvK-nummer").pressSequentially("4");
  await kvkError.waitFor();
  await page.getByLabel("KvK-nummer").fill("12345678");
  await kvkError.waitFor({ state: "hidden" });
  assertEqual(await page.getByLabel("KvK-nummer").getAttribute("aria-invalid"), "false", "valid again");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Instellingen Opgeslagen", "Bedrijfsgegevens zijn succesvol bijgewerkt.");
  await page.getByRole("button", { name: "Bewerken" }).waitFor();
  assert((await page.getByTestId("company-preview").innerText()).includes(COMPANY.name), "live preview");

  const { page: site } = await world.open("/over-ons");
  const footer = site.locator("footer");
  await footer.getByText(COMPANY.phone).first().waitFor({ timeout: 10_000 });
  await footer.getByText("KvK: 12345678").waitFor();
  // The page's title names the company as the header does.
  await waitFor(
    async () => (await site.title()) === `Over Ons: 15+ jaar ervaring in zakelijke lease | ${COMPANY.name}`,
    5000,
    "the title with the saved company name",
  );
});

test("panel: saved company details show at once on the public site in the same browser", async ({
  world,
}) => {
  const page = await cachingBrowser(world);
  await openTab(page, "Bedrijfsgegevens");
  await page.getByRole("button", { name: "Bewerken" }).click();
  await page.getByLabel("KvK-nummer").fill("87654321");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Instellingen Opgeslagen");
  assertEqual(
    await page.getByLabel("KvK-nummer").inputValue(),
    "87654321",
    "the panel shows the saved number",
  );
  const site = await page.context().newPage();
  await site.goto(`${world.baseUrl}/over-ons`);
  await site.locator("footer").getByText("KvK: 87654321").waitFor({ timeout: 5000 });
  await page.context().close();
});

test('admin: a pixel id saved turns its badge "Actief"; a wrong one shows the server message', async ({
  signedIn,
}) => {
  const page = signedIn.page;
  // From no Meta pixel: other files' tests on this worker's stack save one (google-conversions).
  await saveSettings(page, { facebookPixelId: "" });
  await openTab(page, "Social Media Pixels");
  const card = page.getByTestId("pixel-facebookPixelId");
  await card.getByText("Inactief").waitFor();
  await page.getByRole("button", { name: "Bewerken" }).click();
  await card.getByLabel("Pixel ID").fill("abc");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Fout bij Opslaan");
  await card.getByTestId("field-error").waitFor();
  await card.getByLabel("Pixel ID").fill("1234567890123");
  // Corrected: the message goes at once, not only on saving.
  await card.getByTestId("field-error").waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Pixels Opgeslagen");
  await card.getByText("Actief", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Bewerken" }).waitFor();
  // Cancel restores the saved values.
  await page.getByRole("button", { name: "Bewerken" }).click();
  await card.getByLabel("Pixel ID").fill("");
  await card.getByText("Inactief").waitFor();
  await page.getByRole("button", { name: "Annuleren" }).click();
  assertEqual(
    await card.getByLabel("Pixel ID").inputValue(),
    "1234567890123",
    "saved id back after Annuleren",
  );
  await card.getByText("Actief", { exact: true }).waitFor();
});
