// Against the real stack (gateway, services, PostgreSQL, Redis; SendGrid is the local
// receiver): what staff save shows at once, e-mail outcomes are reported when they happen, the
// theme reset asks first, the panel keeps its tab in the URL, and every tab passes axe.
import { createCipheriv, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, MOBILE, test, ADMIN_USERNAME, type AdminWorld } from "./fixtures";
import {
  adminApi,
  dismissNotice,
  expectNotice,
  openTab,
  postLead as postQuote,
  saveSettings,
  signIn,
} from "./admin/helpers";

const TABS = [
  ["analytics", "Analytics"],
  ["aanvragen", "Lease Aanvragen"],
  ["reactietijden", "Reactietijden"],
  ["campagnes", "Campagnes"],
  ["bedrijf", "Bedrijfsgegevens"],
  ["theme", "Theme Instellingen"],
  ["email", "E-mail Instellingen"],
  ["inbox", "E-mail Inbox"],
  ["pixels", "Social Media Pixels"],
  ["gebruikers", "Gebruikers"],
  ["logboek", "Logboek"],
] as const;
const MAIL = { key: "SG.panel-e2e-key-0123456789", sender: "noreply@panel-e2e.nl" };

/** A signed-in admin on a loaded dashboard, in a browser of the test's own. */
async function signedIn(world: AdminWorld): Promise<Page> {
  return (await world.signedIn()).page;
}

/**
 * A browser that caches as a person's does. (Playwright turns the HTTP cache off in a context with
 * request routing, and world.open routes every other host away; the site loads nothing from other
 * hosts without consent, so none is needed here.)
 */
async function cachingBrowser(world: AdminWorld): Promise<Page> {
  const context = await world.newContext({ locale: "nl-NL", timezoneId: "Europe/Amsterdam" });
  const page = await context.newPage();
  await page.goto(`${world.baseUrl}/admin-login`);
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.getByTestId("welkom").waitFor();
  return page;
}

const selectedTab = (page: Page) => page.locator('[role="tab"][aria-selected="true"]').innerText();
const tabParam = (page: Page) => new URL(page.url()).searchParams.get("tab");

const postLead = (world: AdminWorld, email: string, companyName?: string) =>
  postQuote(world, { carUrl: "https://www.autoscout24.nl/aanbod/panel-e2e", email, companyName });

test("panel: each tab has its own title and its place in the URL; reload keeps it, Back returns", async ({
  world,
}) => {
  const page = await signedIn(world);
  await waitFor(
    async () => /^(\(\d+\) )?Analytics \| Beheer$/.test(await page.title()),
    5000,
    "the Analytics title",
  );
  assertEqual(tabParam(page), null, "Analytics, the default, needs no parameter");
  for (const [id, label] of TABS.slice(1)) {
    await openTab(page, label);
    await waitFor(
      async () => (await page.title()).replace(/^\(\d+\) /, "") === `${label} | Beheer`,
      5000,
      `the title of ${label}`,
    );
    assertEqual(tabParam(page), id, `${label} in the URL`);
  }
  await page.reload();
  await page.getByTestId("welkom").waitFor();
  assertEqual(await selectedTab(page), "Logboek", "the reload keeps the tab");
  await page.goBack();
  await waitFor(
    async () => (await selectedTab(page)) === "Gebruikers",
    5000,
    "Back returns to the previous tab",
  );
  assertEqual((await page.title()).replace(/^\(\d+\) /, ""), "Gebruikers | Beheer", "and its title");

  // Other parameters (the Analytics period) stay as the tabs change.
  await page.goto(`${world.baseUrl}/admin?tab=theme&periode=30d`);
  await waitFor(async () => (await selectedTab(page)) === "Theme Instellingen", 5000, "the tab from the URL");
  await openTab(page, "Analytics");
  assertEqual(new URL(page.url()).search, "?periode=30d", "Analytics keeps the period");
  await openTab(page, "Bedrijfsgegevens");
  const params = new URL(page.url()).searchParams;
  assertEqual([params.get("tab"), params.get("periode")], ["bedrijf", "30d"], "both parameters");
});

test("panel: /admin-login goes straight on to the dashboard when already signed in", async ({ world }) => {
  const page = await signedIn(world);
  await page.goto(`${world.baseUrl}/admin-login`);
  await page.waitForURL(/\/admin$/);
  await page.getByTestId("welkom").waitFor();
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

test('panel: "Standaard herstellen" asks first and is part of editing: Cancel keeps, Save stores', async ({
  world,
}) => {
  const page = await signedIn(world);
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
  const page = await signedIn(world);
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

// One story of e-mail outcomes: the first step sets the mail provider the sends after it use, and
// the last reads the sent and refused mails of the steps before it in the Uitgaand folder.
test.describe("panel: e-mail outcomes", () => {
  test("panel: the test e-mail waits for SendGrid and shows its refusal in Dutch", async ({ world }) => {
    const page = await signedIn(world);
    await openTab(page, "E-mail Instellingen");
    await page.getByLabel("SendGrid API key").fill(MAIL.key);
    await page.getByLabel("Afzender e-mail").fill(MAIL.sender);
    await page.getByRole("button", { name: "Opslaan", exact: true }).click();
    await expectNotice(page, "Opgeslagen");
    await dismissNotice(page);

    world.receiver.answer(401);
    await page.getByRole("button", { name: "Test e-mail versturen" }).click();
    await expectNotice(
      page,
      "Test gefaald",
      "Kon geen test e-mail verzenden. SendGrid weigerde de API key (401). Controleer de key bij E-mail Instellingen.",
    );
    await dismissNotice(page);

    // Success is said once SendGrid has it, not before.
    world.receiver.delay(1500);
    try {
      const before = world.receiver.accepted().length;
      await page.getByRole("button", { name: "Test e-mail versturen" }).click();
      await page.getByRole("button", { name: "Test versturen..." }).waitFor();
      await expectNotice(page, "Test e-mail verzonden", `Controleer de inbox van ${MAIL.sender}`);
      assert(world.receiver.accepted().length > before, "the notice came after SendGrid accepted the e-mail");
    } finally {
      world.receiver.delay(0);
    }
  });

  test("panel: a stored key the mailer cannot read says so, in the status and the test, until entered again", async ({
    world,
  }) => {
    const page = await signedIn(world);
    await saveSettings(page, { sendgridApiKey: MAIL.key, fromEmailAddress: MAIL.sender });
    // A new clone with new generated secrets: the stored key was encrypted under another
    // SETTINGS_ENCRYPTION_KEY (AES-256-GCM, stored as base64 of IV, tag and ciphertext).
    const otherSecret = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", otherSecret, iv);
    const sealed = Buffer.concat([cipher.update(MAIL.key, "utf8"), cipher.final()]);
    await world.sql.query("UPDATE settings.company_settings SET sendgrid_api_key_encrypted = $1", [
      Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64"),
    ]);

    await openTab(page, "E-mail Instellingen");
    const status = page.getByTestId("email-settings-status");
    await status.getByText("De opgeslagen API key kan niet worden gelezen — voer hem opnieuw in").waitFor();
    assertEqual(await page.getByLabel("SendGrid API key").inputValue(), "", "no masked key as if it worked");
    assertEqual(await page.getByText("Volledig geconfigureerd").count(), 0, "not configured");
    assertEqual(await page.getByText("Geldig formaat").count(), 1, "only the sender's format is judged");
    // The long status stays on a phone's screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert((await overflow()) <= 0, `E-mail Instellingen at 390 px: ${await overflow()}px too wide`);
    await page.setViewportSize({ width: 1280, height: 800 });
    const before = world.receiver.received.length;
    await page.getByRole("button", { name: "Test e-mail versturen" }).click({ force: true });
    await expectNotice(
      page,
      "Test gefaald",
      "De opgeslagen API key kan niet worden gelezen — voer hem opnieuw in",
    );
    await dismissNotice(page);
    // A follow-up says the same, not "geen e-mailprovider ingesteld".
    const send = await adminApi<{ message: string }>(page, "POST", "/api/admin/send-email", {
      to: "klant.panel@example.nl",
      subject: "Panel: onleesbare key",
      message: "Een bericht van het panel aan de klant.",
    });
    assertEqual(send.status, 409, "follow-up refused");
    assert(send.body.message.includes("kan niet worden gelezen"), `the reason, got ${send.body.message}`);
    assertEqual(world.receiver.received.length, before, "nothing reached SendGrid");

    // Entered again: configured, and the test reaches SendGrid, whose refusal is named in its words.
    await page.getByLabel("SendGrid API key").fill(MAIL.key);
    await page
      .getByTestId("email-settings-draft")
      .getByText("Zo ingevuld: Volledig geconfigureerd")
      .waitFor();
    world.receiver.answer(403);
    await page.getByRole("button", { name: "Test e-mail versturen" }).click();
    await expectNotice(
      page,
      "Test gefaald",
      'SendGrid weigerde de API key (403). Controleer de key bij E-mail Instellingen. SendGrid meldt: "scripted 403".',
    );
    await status.getByText("Volledig geconfigureerd").waitFor();
  });

  /** A mail provider for the sends below (the test e-mail step sets it too, when it runs). */
  const ensureMailSettings = (page: Page) =>
    saveSettings(page, { sendgridApiKey: MAIL.key, fromEmailAddress: MAIL.sender });

  /** Resolves when the window closes; an Error (not a rejection) when it stays open. */
  const closing = (popup: Page) =>
    popup.waitForEvent("close", { timeout: 15_000 }).then(
      () => null,
      (error: unknown) => error,
    );

  /** The compose window, opened by the panel's script as "E-mail Versturen" does (so it may close itself). */
  async function compose(page: Page, subject: string): Promise<Page> {
    await ensureMailSettings(page);
    const [popup] = await Promise.all([
      page.context().waitForEvent("page"),
      page.evaluate(() => void window.open("/email-compose", "_blank")),
    ]);
    await popup.waitForLoadState();
    await popup.getByLabel("Aan").fill("klant.panel@example.nl");
    await popup.getByLabel("Onderwerp").fill(subject);
    await popup.getByLabel("Bericht").fill("Een bericht van het panel aan de klant.");
    return popup;
  }

  test('panel: compose says "In de wachtrij", then "Verzonden" when SendGrid has it, and closes', async ({
    world,
  }) => {
    const page = await signedIn(world);
    world.receiver.delay(1500);
    try {
      const popup = await compose(page, "Panel: verzonden");
      const closed = closing(popup);
      await popup.getByRole("button", { name: "Verzenden" }).click();
      const delivery = popup.getByTestId("delivery");
      await delivery.and(popup.locator('[data-status="queued"]')).getByText("In de wachtrij").waitFor();
      await expectNotice(popup, "In de wachtrij");
      await delivery.and(popup.locator('[data-status="sent"]')).waitFor({ timeout: 10_000 });
      assert(
        world.receiver.accepted().some((mail) => mail.subject === "Panel: verzonden"),
        "Verzonden only once SendGrid accepted it",
      );
      await expectNotice(popup, "E-mail Verzonden");
      assertEqual(await closed, null, "the window closes itself");
    } finally {
      world.receiver.delay(0);
    }
  });

  test("panel: a refused send shows the reason and a retry button that sends it", async ({ world }) => {
    const page = await signedIn(world);
    const popup = await compose(page, "Panel: geweigerd");
    world.receiver.answer(400);
    await popup.getByRole("button", { name: "Verzenden" }).click();
    const failed = popup.getByTestId("delivery").and(popup.locator('[data-status="failed"]'));
    await failed.waitFor({ timeout: 10_000 });
    await failed.getByText("Verzenden mislukt").waitFor();
    await failed.getByText('SendGrid weigerde de e-mail (400). SendGrid meldt: "scripted 400".').waitFor();
    assert(!popup.isClosed(), "the window stays open after a failure");
    const closed = closing(popup);
    await failed.getByRole("button", { name: "Opnieuw versturen" }).click();
    await popup
      .getByTestId("delivery")
      .and(popup.locator('[data-status="sent"]'))
      .waitFor({ timeout: 10_000 });
    assertEqual(
      world.receiver.accepted().filter((mail) => mail.subject === "Panel: geweigerd").length,
      1,
      "sent once on retry",
    );
    assertEqual(await closed, null, "the window closes itself");
  });

  test("panel: a send that keeps failing can be cancelled; Uitgaand shows it as not sent, never 'Verzonden'", async ({
    world,
  }) => {
    const page = await signedIn(world);
    const popup = await compose(page, "Panel: geannuleerd");
    world.receiver.answer(503);
    await popup.getByRole("button", { name: "Verzenden", exact: true }).click();
    const delivery = popup.getByTestId("delivery");
    await delivery
      .and(popup.locator('[data-status="retrying"]'))
      .getByText("Nog niet verzonden")
      .waitFor({ timeout: 10_000 });
    await delivery.getByRole("button", { name: "Verzenden annuleren" }).click();
    const failed = delivery.and(popup.locator('[data-status="failed"]'));
    await failed.getByText("Verzenden geannuleerd: deze e-mail is niet verzonden.").waitFor();
    await failed.getByRole("button", { name: "Opnieuw versturen" }).waitFor();
    assert(!popup.isClosed(), "the window stays open");

    // The panel's outgoing mail: its real state and when it was written, no "Verzonden" time.
    await openTab(page, "E-mail Inbox");
    await page.getByRole("button", { name: "Uitgaand", exact: true }).click();
    const item = page.getByTestId("inbox-item").filter({ hasText: "Panel: geannuleerd" });
    await item.getByTestId("badge").filter({ hasText: "Verzenden mislukt" }).waitFor();
    await item.getByText(/^Geschreven /).waitFor();
    assert(!(await item.innerText()).includes("Verzonden"), `not "Verzonden": ${await item.innerText()}`);
    await item.click();
    const detail = page.getByTestId("email-detail");
    await detail.getByText("Geschreven", { exact: true }).waitFor();
    await page.getByTestId("failure-reason").getByText("Verzenden geannuleerd").waitFor();
    assertEqual(
      world.receiver.accepted().filter((mail) => mail.subject === "Panel: geannuleerd").length,
      0,
      "never sent",
    );
  });

  test("panel: sent mail is its own folder with its delivery state, never unread 'Algemene E-mail'", async ({
    world,
  }) => {
    const page = await signedIn(world);
    // Sent mail of both outcomes: a reply SendGrid took, and a test e-mail it refused (bad key).
    await ensureMailSettings(page);
    const replies = () =>
      world.receiver.accepted().filter((mail) => mail.subject === "Panel: verzonden (map)");
    const repliesBefore = replies().length;
    const reply = await adminApi(page, "POST", "/api/admin/send-email", {
      to: "klant.panel@example.nl",
      subject: "Panel: verzonden (map)",
      message: "Een bericht van het panel aan de klant.",
    });
    assertEqual(reply.status, 202, "the reply queued");
    await waitFor(() => replies().length > repliesBefore, 15_000, "the reply at SendGrid");
    world.receiver.answer(401);
    const test = await adminApi(page, "POST", "/api/admin/email-settings/test", {});
    assert(
      JSON.stringify(test.body).includes("SendGrid weigerde de API key (401)"),
      `the refused test e-mail, answered ${test.status}: ${JSON.stringify(test.body)}`,
    );
    await openTab(page, "E-mail Inbox");
    await page.getByText(/\d+ ongelezen/).waitFor();
    assertEqual(
      await page.getByTestId("inbox-item").filter({ hasText: "Panel:" }).count(),
      0,
      "the inbox (Ontvangen) holds no sent mail",
    );
    assertEqual(await page.getByText("Algemene E-mail").count(), 0, "no sent mail as Algemene E-mail");
    await page.getByRole("button", { name: "Uitgaand", exact: true }).click();
    const sent = page.getByTestId("inbox-item").filter({ hasText: "Panel: verzonden (map)" });
    await sent.getByText("Uitgaande e-mail").waitFor();
    await sent.getByTestId("badge").filter({ hasText: "Verzonden" }).waitFor();
    assertEqual(await sent.getAttribute("data-unread"), "false", "sent mail is not unread");
    await sent.getByText("Aan: klant.panel@example.nl").waitFor();
    const testMail = page.getByTestId("inbox-item").filter({ hasText: "Test e-mail" });
    await testMail.getByText("Verzenden mislukt").first().waitFor();
    await testMail.getByText("Verzenden mislukt").first().click();
    await page.getByTestId("failure-reason").getByText("SendGrid weigerde de API key (401).").waitFor();
    await page.getByTestId("email-detail").getByRole("button", { name: "Opnieuw versturen" }).waitFor();
  });
});

test("panel: a search without results says so, not 'Nog geen lease aanvragen ontvangen'", async ({
  world,
}) => {
  const page = await signedIn(world);
  await postLead(world, "zoeken@panel-e2e.nl");
  await openTab(page, "Lease Aanvragen");
  await page.getByLabel("Zoeken").fill("bestaat-echt-niet-xyz");
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  await page.getByText("Geen lease aanvragen gevonden voor deze zoekopdracht.").waitFor();
  assertEqual(
    await page.getByText("Nog geen lease aanvragen ontvangen").count(),
    0,
    "not the empty-list text",
  );
  await page.getByRole("button", { name: "Zoekopdracht wissen" }).click();
  await page.getByTestId("lease-item").filter({ hasText: "zoeken@panel-e2e.nl" }).waitFor();
});

test("panel: the CSV export has its dates in Amsterdam time", async ({ world }) => {
  const page = await signedIn(world);
  await postLead(world, "csv@panel-e2e.nl");
  const { rows } = await world.sql.query<{ at: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'Europe/Amsterdam', 'DD-MM-YYYY HH24:MI:SS') AS at
     FROM leads.lease_requests WHERE email = 'csv@panel-e2e.nl'`,
  );
  await openTab(page, "Lease Aanvragen");
  const href = await page.getByRole("link", { name: "Exporteer CSV" }).getAttribute("href");
  const csv = await page.evaluate((url) => fetch(url!).then((r) => r.text()), href);
  const line = csv.split("\r\n").find((row) => row.includes("csv@panel-e2e.nl"));
  assert(line, "the lead is in the export");
  assert(line.startsWith(`"${rows[0]!.at}";`), `Amsterdam time ${rows[0]!.at}, got ${line.split(";")[0]}`);
});

test("panel: a notice does not cover the request's Bellen and Verwijderen buttons", async ({ world }) => {
  const page = await signedIn(world);
  await postLead(world, "melding@panel-e2e.nl", "Melding BV");
  // Short enough that the action row can sit at the bottom of the window, where notices appeared.
  for (const viewport of [{ width: 1280, height: 640 }, MOBILE]) {
    await page.setViewportSize(viewport);
    await openTab(page, "Lease Aanvragen");
    await page.getByRole("button", { name: "Vernieuwen" }).click();
    await page.getByTestId("lease-item").filter({ hasText: "Melding BV" }).click();
    const detail = page.getByTestId("lease-detail");
    const actions = [
      detail.getByRole("link", { name: "Bellen" }),
      detail.getByRole("button", { name: "Verwijderen" }),
    ];
    // The action row at the bottom of the window, where notices used to appear.
    await actions[1]!.evaluate((el) => el.scrollIntoView({ block: "end" }));
    const status = detail.getByRole("button", { name: /^Markeer als (Gereageerd|Bekeken)$/ }).first();
    await status.click();
    const notice = await expectNotice(page, "Status Bijgewerkt");
    // Wherever the list's refresh left the page: the buttons at the bottom again, then look. The
    // notice re-places on the next frame, which a loaded machine may draw late: look until it has.
    let covered = "";
    const clear = async () => {
      await actions[1]!.evaluate((el) => el.scrollIntoView({ block: "end" }));
      await page.waitForTimeout(150);
      const box = await notice.boundingBox();
      assert(box, "the notice is shown");
      for (const action of actions) {
        const b = await action.boundingBox();
        assert(b, "the button is shown");
        const overlap =
          box.x < b.x + b.width &&
          b.x < box.x + box.width &&
          box.y < b.y + b.height &&
          b.y < box.y + box.height;
        if (overlap) {
          covered = await action.innerText();
          return false;
        }
      }
      return true;
    };
    await waitFor(clear, 3000, "the notice clear of the buttons").catch((error: unknown) => {
      throw covered ? new Error(`at ${viewport.width}px the notice covers "${covered}"`) : error;
    });
    await dismissNotice(page);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("panel: at 375 px the active visitors are readable without scrolling sideways", async ({ world }) => {
  const page = await signedIn(world);
  await page.setViewportSize(MOBILE);
  try {
    await openTab(page, "Analytics");
    await world.open("/financiele-lease");
    const table = page.getByTestId("active-visitors");
    await table.waitFor({ timeout: 15_000 });
    const widths = await table.evaluate((el) => ({
      table: el.scrollWidth,
      room: el.parentElement!.clientWidth,
    }));
    assert(widths.table <= widths.room, `the list is ${widths.table - widths.room}px wider than the screen`);
    const cell = table.locator("td").nth(1);
    assertEqual(
      await cell.evaluate((el) => getComputedStyle(el, "::before").content),
      '"User agent"',
      "each value names its column",
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `the page is ${overflow}px too wide`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test("axe: no serious or critical violation on the login page, any admin tab or the compose window", async ({
  world,
}) => {
  // axe over every admin tab and the compose window.
  test.slow();
  // A request in the list and its e-mail in the inbox, to open on their tabs.
  await postLead(world, "axe@panel-e2e.nl", "Axe BV");
  await waitFor(
    async () =>
      (
        await world.sql.query("SELECT 1 FROM mailer.email_messages WHERE sender_email = $1", [
          "axe@panel-e2e.nl",
        ])
      ).rowCount,
    15_000,
    "the request's inbox entry",
  );
  const { page: login } = await world.open("/admin-login");
  await expectAccessible(login, "/admin-login");
  const page = await signedIn(world);
  for (const [, label] of TABS) {
    await openTab(page, label);
    await page.waitForLoadState("networkidle");
    if (label === "Lease Aanvragen") await page.getByTestId("lease-item").first().click();
    if (label === "E-mail Inbox") await page.getByTestId("inbox-item").first().click();
    await expectAccessible(page, label);
  }
  const popup = await page.context().newPage();
  await popup.goto(`${world.baseUrl}/email-compose`);
  await popup.getByLabel("Aan").waitFor();
  await expectAccessible(popup, "/email-compose");
  await popup.close();
});

test('panel: a session that ends mid-work says "Sessie verlopen", shows none of its notices, and returns to the same tab', async ({
  world,
}) => {
  const page = await signedIn(world);
  await openTab(page, "E-mail Inbox");
  // A lead's live notice is up when the session ends: the login page must not show it to whoever
  // signs in next at this screen.
  await postLead(world, `sessie-${randomBytes(3).toString("hex")}@panel-e2e.nl`);
  const notice = page.getByRole("status").filter({ hasText: "Nieuwe Aanvraag" });
  await notice.waitFor();
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "admin_session");
  assert(session, "signed in");
  const ended = await fetch(`${world.baseUrl}/api/admin/logout`, {
    method: "POST",
    headers: {
      cookie: `admin_session=${session.value}`,
      origin: world.baseUrl,
      "content-type": "application/json",
    },
  });
  assert(ended.ok, `the session ended elsewhere (${ended.status})`);
  // The next admin call is answered 401 (the tab's own first load may get there first).
  await page
    .getByRole("button", { name: "Vernieuwen" })
    .click({ timeout: 2000 })
    .catch(() => undefined);
  await page.waitForURL("**/admin-login");
  await page.getByRole("alert").getByText("Sessie verlopen").waitFor();
  assertEqual(await notice.count(), 0, "no notice of the ended session on the login page");
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.waitForURL((url) => url.pathname === "/admin" && url.searchParams.get("tab") === "inbox");
  await waitFor(async () => (await selectedTab(page)) === "E-mail Inbox", 5000, "back on the same tab");
});
