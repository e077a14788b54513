// Theme Instellingen, against the real stack: a preset saved changes the public site's colours and
// stays in the panel after a reload; "Standaard herstellen" asks first and is part of editing; the
// editor warns of a colour under 4.5:1 contrast and offers the nearest that passes.
import { assert, assertEqual, waitFor, test } from "./fixtures";
import { cachingBrowser, dismissNotice, expectNotice, openTab, signedInPage } from "./admin/helpers";

test("admin: a theme saved changes the public site's colours", async ({ world, signedIn }) => {
  const page = signedIn.page;
  await openTab(page, "Theme Instellingen");
  await page.getByRole("button", { name: "Bewerken" }).click();
  await page.getByRole("button", { name: "Professional Blue" }).click();
  assertEqual(
    await page.getByLabel("Primaire kleur", { exact: true }).inputValue(),
    "#2563EB",
    "preset primary",
  );
  // A preset sets every colour: no red hover or purple gradient of the default left under blue.
  for (const [label, value] of [
    ["Primaire kleur (hover)", "#1D4ED8"],
    ["Accentkleur", "#059669"],
    ["Achtergrondverloop begin", "#1E3A8A"],
    ["Achtergrondverloop eind", "#2563EB"],
  ] as const)
    assertEqual(await page.getByLabel(label, { exact: true }).inputValue(), value, `preset ${label}`);
  await page.getByRole("button", { name: "Voorbeeld" }).click();
  await expectNotice(page, "Theme Toegepast");
  await page.getByText("alleen tijdelijk zichtbaar").waitFor();
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Theme Opgeslagen");

  const { page: site } = await world.open("/");
  await waitFor(
    async () =>
      (
        await site.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue("--color-primary"),
        )
      )
        .trim()
        .toUpperCase() === "#2563EB",
    10_000,
    "the public primary colour",
  );
  assertEqual(
    await site.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--color-primary-hover").trim(),
    ),
    "#1D4ED8",
    "the public hover colour is the preset's blue",
  );

  // Reset to default, confirmed and saved, stores the default theme again.
  await dismissNotice(page);
  await page.getByRole("button", { name: "Bewerken" }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Standaard herstellen" }).click();
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Theme Opgeslagen", "standaard");
  assertEqual(
    await page.getByLabel("Primaire kleur", { exact: true }).inputValue(),
    "#EA580C",
    "default primary",
  );
});

test("panel: a saved theme stays in the panel, after a reload and on the public site in the same browser", async ({
  world,
}) => {
  const page = await cachingBrowser(world);
  await openTab(page, "Theme Instellingen");
  const primary = page.getByLabel("Primaire kleur", { exact: true });
  await primary.waitFor();
  const before = await primary.inputValue();
  assert(before !== "#7C3AED", "starts from another theme");
  await page.getByRole("button", { name: "Bewerken" }).click();
  await page.getByRole("button", { name: "Modern Purple" }).click();
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Theme Opgeslagen");
  await page.waitForLoadState("networkidle");
  assertEqual(await primary.inputValue(), "#7C3AED", "the panel keeps the saved colour (no snapping back)");
  assertEqual(
    await page
      .getByTestId("theme-preview")
      .evaluate((el) => getComputedStyle(el).getPropertyValue("--color-primary")),
    "#7C3AED",
    "the preview too",
  );
  await page.reload();
  await primary.waitFor();
  assertEqual(await primary.inputValue(), "#7C3AED", "a reload shows the saved colour");

  const site = await page.context().newPage();
  await site.goto(`${world.baseUrl}/`);
  await waitFor(
    async () =>
      (
        await site.evaluate(() => document.documentElement.style.getPropertyValue("--color-primary"))
      ).toUpperCase() === "#7C3AED",
    5000,
    "the public site in the same browser shows the saved colour",
  );
  await page.context().close();
});

test('panel: "Standaard herstellen" asks first and is part of editing: Cancel keeps, Save stores', async ({
  world,
}) => {
  const page = await signedInPage(world);
  // A custom theme stored to start from.
  const saved = await page.evaluate(() =>
    fetch("/api/admin/theme-settings", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ primaryColor: "#7C3AED" }),
    }).then((r) => r.status),
  );
  assertEqual(saved, 200, "a custom theme saved");
  await page.reload();
  await page.getByTestId("welkom").waitFor();
  await openTab(page, "Theme Instellingen");
  const primary = page.getByLabel("Primaire kleur", { exact: true });
  await primary.waitFor();
  const stored = await primary.inputValue();
  assert(stored !== "#EA580C", `a custom theme to start from, got ${stored}`);
  await page.getByRole("button", { name: "Bewerken" }).click();

  let question = "";
  page.once("dialog", (dialog) => {
    question = dialog.message();
    void dialog.dismiss();
  });
  await page.getByRole("button", { name: "Standaard herstellen" }).click();
  await waitFor(() => question.includes("standaard theme"), 5000, "a question first");
  assertEqual(await primary.inputValue(), stored, "declined: nothing changes");

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Standaard herstellen" }).click();
  assertEqual(await primary.inputValue(), "#EA580C", "the defaults are filled in");
  await page.getByRole("button", { name: "Annuleren" }).click();
  assertEqual(await primary.inputValue(), stored, "Annuleren keeps the stored theme");
  const { rows } = await world.sql.query<{ primary_color: string }>(
    "SELECT primary_color FROM settings.theme_settings",
  );
  assertEqual(rows[0]?.primary_color, stored, "nothing was saved");

  await page.getByRole("button", { name: "Bewerken" }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Standaard herstellen" }).click();
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Theme Opgeslagen", "Het standaard theme is hersteld.");
  assertEqual(await primary.inputValue(), "#EA580C", "saved: the default theme");
});

test("panel: the theme editor warns when a chosen colour and its text stay under 4.5:1, says whose colour it is and offers the nearest that passes", async ({
  world,
}) => {
  const page = await signedInPage(world);
  await openTab(page, "Theme Instellingen");
  await page.getByRole("button", { name: "Bewerken" }).click();
  const primary = page.getByLabel("Primaire kleur", { exact: true });
  await primary.fill("#EA580C");
  const warning = page.locator("#theme-primaryColor-hint");
  await warning.getByText("Onvoldoende contrast").waitFor();
  assert((await warning.innerText()).includes("#C74B0A"), "names the darker shade the site uses");
  assertEqual(
    (await primary.getAttribute("aria-describedby")) ?? "",
    "theme-primaryColor-hint",
    "the field points to the warning",
  );
  assert(
    (await warning.innerText()).includes('standaardkleur van het thema "Default Orange"'),
    "says the colour is the factory theme's, not the broker's choice",
  );
  // The nearest colour that passes, in one click: the warning goes.
  await page.getByRole("button", { name: /^Gebruik #C74B0A voor Primaire kleur/ }).click();
  assertEqual(await primary.inputValue(), "#C74B0A", "the suggested shade is filled in");
  assertEqual(await warning.count(), 0, "the suggested shade passes: no warning");
  await primary.fill("#9CA3AF");
  await warning.getByText("Onvoldoende contrast").waitFor();
  assert(!(await warning.innerText()).includes("standaardkleur"), "an own colour is not called a default");
  await page.getByRole("button", { name: "Professional Blue" }).click();
  assertEqual(await warning.count(), 0, "blue passes: no warning");
  await page.getByRole("button", { name: "Annuleren" }).click();
});
