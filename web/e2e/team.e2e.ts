// Against the real stack: a second admin created in "Gebruikers" with a one-time
// password, signing in with it and choosing an own password, changing it (the other session
// ends), turning on two-factor sign-in with the QR code's secret and signing in with a code; then
// disabled by the first admin, which ends the second admin's session at once, removed, and all of it
// in the audit log ("Logboek").
import type { Page } from "@playwright/test";
import { authenticatorCode } from "@lease/platform/testing";
import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, test, ADMIN_USERNAME, DESKTOP, MOBILE } from "./fixtures";
import { dismissNotice, expectNotice, openTab, signIn } from "./admin/helpers";

// A removed admin's name is never given again: a fresh name per run (a retry on the same stack).
const COLLEAGUE = `collega-${Date.now().toString(36)}`;
const FIRST_PASSWORD = "collega eigen wachtwoord 1";
const SECOND_PASSWORD = "collega eigen wachtwoord 2";

const row = (page: Page, username: string) =>
  page.getByTestId("gebruiker").filter({ has: page.getByRole("cell", { name: new RegExp(`^${username}`) }) });

test("team: a second admin with a one-time password, an own password, a password change and TOTP sign-in", async ({
  world,
}) => {
  // One journey over four browser sessions with three axe checks: minutes on a busy 2-core machine.
  test.slow();
  // The first admin creates the colleague; the one-time password shows once.
  const { page: admin } = await world.open("/admin-login");
  await signIn(admin, ADMIN_USERNAME, world.password);
  await admin.getByTestId("welkom").waitFor();
  await dismissNotice(admin);
  await openTab(admin, "Gebruikers");
  await admin.getByLabel("Nieuwe beheerder (gebruikersnaam)").fill("met spatie");
  await admin.getByRole("button", { name: "Beheerder aanmaken" }).click();
  await admin.getByText("Gebruik 1 tot 100 letters, cijfers of . _ @ -").waitFor();
  await admin.getByLabel("Nieuwe beheerder (gebruikersnaam)").fill(COLLEAGUE);
  await admin.getByRole("button", { name: "Beheerder aanmaken" }).click();
  const shown = admin.getByTestId("eenmalig-wachtwoord");
  await shown.waitFor();
  const oneTime = (await shown.getByTestId("wachtwoord").innerText()).trim();
  assert(oneTime.length >= 16, "a one-time password of at least 16 characters");
  await row(admin, COLLEAGUE).getByText("Eenmalig wachtwoord").waitFor();
  // It stays until dismissed, also when "Beheerder aanmaken" is clicked again and fails.
  await admin.getByRole("button", { name: "Beheerder aanmaken" }).click();
  await admin.getByText("Gebruikersnaam is verplicht").waitFor();
  assertEqual((await shown.getByTestId("wachtwoord").innerText()).trim(), oneTime, "still shown");

  // On a phone (390 px): the tabs are one "Tabblad" menu, and Gebruikers is a card per admin
  // with its last sign-in and its buttons on screen.
  await admin.setViewportSize(MOBILE);
  const tabs = await admin.getByRole("navigation", { name: "Dashboard tabbladen" }).boundingBox();
  assert(tabs!.height < 80, `the tab menu takes ${tabs!.height}px`);
  await openTab(admin, "Logboek");
  await openTab(admin, "Gebruikers");
  const card = admin.getByTestId("gebruiker-kaart").filter({ hasText: COLLEAGUE });
  await card.getByText("Laatst ingelogd").waitFor();
  await card.getByText("Nog nooit").waitFor();
  for (const button of await card.getByRole("button").all()) {
    const box = (await button.boundingBox())!;
    assert(box.x >= 0 && box.x + box.width <= MOBILE.width, `${await button.innerText()} is on screen`);
  }
  const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `Gebruikers is ${overflow}px wider than the phone`);
  await shown.getByTestId("wachtwoord").waitFor();
  await admin.setViewportSize(DESKTOP);
  await expectAccessible(admin, "Gebruikers with a new admin's one-time password");

  // The colleague signs in with it and must choose an own password first.
  const { page: colleague } = await world.open("/admin-login");
  await signIn(colleague, COLLEAGUE, oneTime);
  await colleague.getByRole("heading", { name: "Kies je wachtwoord" }).waitFor();
  await expectAccessible(colleague, "the new-password step");
  await colleague.getByLabel("Nieuw wachtwoord", { exact: true }).fill(FIRST_PASSWORD);
  await colleague.getByLabel("Herhaal nieuw wachtwoord").fill("iets anders dan dat");
  await colleague.getByRole("button", { name: "Opslaan en inloggen" }).click();
  await colleague.getByText("De wachtwoorden zijn niet gelijk").waitFor();
  await colleague.getByLabel("Herhaal nieuw wachtwoord").fill(FIRST_PASSWORD);
  await colleague.getByRole("button", { name: "Opslaan en inloggen" }).click();
  await colleague
    .getByTestId("welkom")
    .filter({ hasText: `Welkom, ${COLLEAGUE}` })
    .waitFor();
  await dismissNotice(colleague);

  // A second session of the colleague elsewhere; changing the password ends it, not this one.
  const { page: elsewhere } = await world.open("/admin-login");
  await signIn(elsewhere, COLLEAGUE, FIRST_PASSWORD);
  await elsewhere.getByTestId("welkom").waitFor();
  await openTab(colleague, "Gebruikers");
  await colleague.getByLabel("Huidig wachtwoord").fill(FIRST_PASSWORD);
  await colleague.getByLabel("Nieuw wachtwoord", { exact: true }).fill(SECOND_PASSWORD);
  await colleague.getByLabel("Herhaal nieuw wachtwoord").fill(SECOND_PASSWORD);
  await colleague.getByRole("button", { name: "Wachtwoord wijzigen" }).click();
  await expectNotice(colleague, "Wachtwoord gewijzigd");
  await dismissNotice(colleague);
  await elsewhere.reload();
  await elsewhere.waitForURL("**/admin-login");
  await colleague.reload();
  await colleague.getByTestId("welkom").waitFor();

  // Two-factor sign-in: the QR code, the key under it, a first code, ten recovery codes.
  // Turning it on takes the password first.
  await colleague.getByRole("button", { name: "Tweestapsverificatie instellen" }).click();
  await colleague.getByLabel("Je wachtwoord, om in te stellen").fill("niet het wachtwoord");
  await colleague.getByRole("button", { name: "Doorgaan" }).click();
  await colleague
    .getByTestId("field-error")
    .filter({ hasText: "Het huidige wachtwoord klopt niet" })
    .waitFor();
  await colleague.getByLabel("Je wachtwoord, om in te stellen").fill(SECOND_PASSWORD);
  await colleague.getByRole("button", { name: "Doorgaan" }).click();
  await colleague.getByRole("img", { name: "QR-code voor je authenticator-app" }).waitFor();
  const secret = (await colleague.getByTestId("totp-sleutel").innerText()).trim();
  assert(/^[A-Z2-7]{32}$/.test(secret), `a base32 secret, got "${secret}"`);
  await expectAccessible(colleague, "the two-factor setup with its QR code");
  await colleague.getByLabel("Code uit de app").fill("000000");
  await colleague.getByRole("button", { name: "Bevestigen en aanzetten" }).click();
  await colleague.getByTestId("field-error").filter({ hasText: "Onjuiste code" }).waitFor();
  await colleague.getByLabel("Code uit de app").fill(authenticatorCode(secret));
  await colleague.getByRole("button", { name: "Bevestigen en aanzetten" }).click();
  const recovery = colleague.getByTestId("herstelcodes");
  await recovery.waitFor();
  await expectNotice(colleague, "Tweestapsverificatie staat aan");
  assertEqual(await recovery.getByRole("listitem").count(), 10, "ten recovery codes");
  await colleague.getByTestId("tweestaps-status").filter({ hasText: "Staat aan" }).waitFor();
  await colleague.getByRole("button", { name: "Ik heb ze bewaard" }).click();
  assertEqual(await colleague.getByTestId("totp-sleutel").count(), 0, "the secret is no longer shown");

  // Signing in again now takes the password and a code.
  await dismissNotice(colleague);
  await colleague.getByRole("button", { name: "Uitloggen" }).click();
  await colleague.waitForURL("**/admin-login");
  await signIn(colleague, COLLEAGUE, SECOND_PASSWORD);
  await colleague.getByRole("heading", { name: "Tweestapsverificatie" }).waitFor();
  await expectAccessible(colleague, "the code step");
  // The confirming code was spent: the app's next one signs in.
  await colleague.getByLabel("Verificatiecode").fill(authenticatorCode(secret, Date.now() + 30_000));
  await colleague.getByRole("button", { name: "Bevestigen" }).click();
  await colleague
    .getByTestId("welkom")
    .filter({ hasText: `Welkom, ${COLLEAGUE}` })
    .waitFor();

  // The first admin sees it, and disabling the colleague ends their session at once.
  await admin.reload();
  await admin.getByTestId("welkom").waitFor();
  const colleagueRow = row(admin, COLLEAGUE);
  await colleagueRow.getByRole("cell", { name: "Aan", exact: true }).waitFor();
  assertEqual(await row(admin, ADMIN_USERNAME).getByRole("button").count(), 0, "no actions on oneself");
  // A lost phone: the first admin resets the colleague's second factor. The colleague's open panel
  // says that is why it signed out (not "Sessie verlopen"), and the password alone signs in again.
  admin.once("dialog", (dialog) => void dialog.accept());
  await colleagueRow.getByRole("button", { name: `Tweestapsverificatie resetten: ${COLLEAGUE}` }).click();
  await colleague.waitForURL("**/admin-login", { timeout: 10_000 });
  const why = colleague.getByRole("alert").filter({ hasText: "Je tweestapsverificatie is gereset" });
  await why.waitFor({ timeout: 5000 });
  assert(
    (await why.innerText()).includes("Een andere beheerder heeft je tweestapsverificatie (2FA) uitgezet."),
    "who did what",
  );
  assertEqual(await colleague.getByText("Sessie verlopen").count(), 0, "not 'Sessie verlopen'");
  await colleague.setViewportSize({ width: 390, height: 844 });
  await colleague.screenshot({ path: "/tmp/h-a11y/2fa-gereset-390.png" });
  await expectAccessible(colleague, "the sign-in page after a 2FA reset");
  await colleague.setViewportSize({ width: 1280, height: 800 });
  await signIn(colleague, COLLEAGUE, SECOND_PASSWORD);
  await colleague
    .getByTestId("welkom")
    .filter({ hasText: `Welkom, ${COLLEAGUE}` })
    .waitFor();
  await colleagueRow.getByRole("cell", { name: "Uit", exact: true }).waitFor();
  // The confirmation says what happens to the colleague's open leads.
  let question = "";
  admin.once("dialog", (dialog) => {
    question = dialog.message();
    void dialog.accept();
  });
  await colleagueRow.getByRole("button", { name: `Uitschakelen: ${COLLEAGUE}` }).click();
  await expectNotice(admin, "Uitgeschakeld");
  assertEqual(
    question.includes(`De open aanvragen van ${COLLEAGUE} gaan naar de andere beheerders`),
    true,
    `the confirmation names the hand-over: ${question}`,
  );
  await colleagueRow.getByText("Uitgeschakeld").waitFor();
  // The colleague's open panel leaves by itself at once (the socket closes with 4401) and the
  // sign-in page says why; nobody reloads it.
  await colleague.waitForURL("**/admin-login", { timeout: 5000 });
  await colleague.getByRole("alert").getByText("Je account is uitgeschakeld").waitFor({ timeout: 5000 });
  const [state] = await world.sql
    .query<{ disabled: boolean }>(
      "SELECT disabled_at IS NOT NULL AS disabled FROM gateway.admins WHERE username = $1",
      [COLLEAGUE],
    )
    .then((r) => r.rows);
  assertEqual(state?.disabled, true, "disabled in the database");

  // And removing: after a confirmation, the row is gone.
  admin.once("dialog", (dialog) => void dialog.accept());
  await colleagueRow.getByRole("button", { name: `Verwijderen: ${COLLEAGUE}` }).click();
  await expectNotice(admin, "Verwijderd");
  await waitFor(async () => (await row(admin, COLLEAGUE).count()) === 0, 5000, "the colleague's row is gone");

  // The audit log names who did what, filtered by action.
  await openTab(admin, "Logboek");
  await admin.getByLabel("Actie", { exact: true }).selectOption("admin.removed");
  await admin
    .getByTestId("logboek-regel")
    .filter({ hasText: "Beheerder verwijderd" })
    .filter({ hasText: COLLEAGUE })
    .waitFor();
  // Only removals (the worker's stack may hold removals by earlier files too).
  const removals = await admin.getByTestId("logboek-regel").allInnerTexts();
  assert(
    removals.every((text) => text.includes("Beheerder verwijderd")),
    `only removals, got ${JSON.stringify(removals)}`,
  );
  await admin.getByLabel("Actie", { exact: true }).selectOption("");
  await admin.getByLabel("Beheerder", { exact: true }).fill(COLLEAGUE);
  await admin.getByTestId("logboek-regel").filter({ hasText: "Tweestapsverificatie aangezet" }).waitFor();
  await expectAccessible(admin, "Logboek");
});
