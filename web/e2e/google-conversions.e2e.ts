// Google server-side conversions (docs/campaigns-and-ad-platforms.md), as a new user would try it:
// staff set Google up in the Pixels tab (the Google Ads account, a conversion action per event, a
// service account's key), Meta beside it. A visitor from a Google Ads click (gclid), one from a
// Meta ad (fbclid) and one from Google without a click id each accept all cookies and send a quote
// through the browser: the local Google stand-in (its token endpoint checks the key's JWT
// signature) receives an arrival for all three, with the hashed e-mail and phone and consent
// granted, the first with its gclid; a contract later carries its commission. A visitor who allows
// only analytical cookies causes nothing at either stand-in. The lead's detail names the match keys
// each event carried, and "Testgebeurtenis versturen" reaches Meta with its test code and Google as
// validate-only.
import { createHash, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import type { CreateLeaseRequestResponse } from "@lease/contracts";
import { assert, assertEqual, test, waitFor, type AdminWorld } from "./fixtures";
import {
  adminApi,
  dismissNotice,
  expectNotice,
  openLead,
  openTab,
  saveSettings,
  saveStage,
  sendQuoteForm,
} from "./admin/helpers";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const ACTIONS = { lead: "81001", offerte: "81002", getekend: "81003" };
const CONSENT = { adUserData: "CONSENT_GRANTED", adPersonalization: "CONSENT_GRANTED" };

async function visit(
  world: AdminWorld,
  query: string,
  choice: "accept all" | "analytics only",
  who: { email: string; companyName: string },
): Promise<CreateLeaseRequestResponse> {
  const { page } = await world.open(`/${query}`);
  const banner = page.getByRole("dialog");
  if (choice === "accept all") await banner.getByRole("button", { name: "Accepteren" }).click();
  else {
    await banner.getByRole("button", { name: "Instellingen" }).click();
    await banner.getByLabel(/Analytisch/).check();
    await banner.getByRole("button", { name: "Voorkeuren Opslaan" }).click();
  }
  await banner.waitFor({ state: "hidden" });
  return sendQuoteForm(page, { ...who, contactNumber: "+31 (0)6-1234 5678" });
}

const arrival = (world: AdminWorld, quote: CreateLeaseRequestResponse) =>
  waitFor(
    () => world.google.accepted().find((r) => r.event.transactionId === quote.eventId),
    30_000,
    `the arrival of ${quote.id} at Google`,
  );

async function setUpGoogle(admin: Page, keyFile: string): Promise<void> {
  await openTab(admin, "Social Media Pixels");
  const card = admin.getByTestId("conversies-google");
  await card.getByLabel("Klant-ID van Google Ads").fill("123-456-7890");
  await card.getByLabel("Conversieactie: Aanvraag").fill(ACTIONS.lead);
  await card.getByLabel("Conversieactie: Offerte verstuurd").fill(ACTIONS.offerte);
  await card.getByLabel("Conversieactie: Contract getekend").fill(ACTIONS.getekend);
  await card.getByLabel("JSON-sleutelbestand (de hele tekst)").fill(keyFile);
  await card.getByLabel("Conversies versturen").check();
  await admin.getByRole("button", { name: "Google Opslaan" }).click();
  await expectNotice(admin, "Google Opgeslagen");
  await card.getByText("Serviceaccount opgeslagen").waitFor();
  await dismissNotice(admin);
  // The key is never shown back.
  assertEqual(await card.getByLabel("JSON-sleutelbestand (de hele tekst)").inputValue(), "", "key not shown");
}

test("Google's conversions: a gclid visitor, a Meta visitor and a Google visitor without click id reach Google hashed with consent; a contract with its commission; analytics-only sends nothing; test events", async ({
  world,
  signedIn,
}) => {
  test.setTimeout(180_000);
  const tag = randomBytes(3).toString("hex");
  const admin = signedIn.page;
  await saveSettings(admin, { facebookPixelId: "1234567890123456" });
  const meta = await adminApi(admin, "PUT", "/api/admin/conversion-settings", {
    meta: { enabled: true, accessToken: "EAAB-google-e2e-meta-token-0123456789" },
  });
  assertEqual(meta.status, 200, "Meta switched on");
  await admin.reload();
  await setUpGoogle(admin, world.googleKeyFile);

  const people = ["Klik", "Meta", "Direct", "Analyse"].map((n) => ({
    email: `Google.${n}.${tag}@Voorbeeld.NL`,
    companyName: `Google ${n} ${tag} BV`,
  }));
  const gclid = `Cj0KCQ-e2e-${tag}`;
  const fromGoogle = await visit(
    world,
    `?gclid=${gclid}&utm_source=google&utm_medium=cpc`,
    "accept all",
    people[0]!,
  );
  const fromMeta = await visit(
    world,
    `?fbclid=IwAR-e2e-${tag}&utm_source=facebook`,
    "accept all",
    people[1]!,
  );
  const direct = await visit(world, "?utm_source=google&utm_medium=cpc", "accept all", people[2]!);
  const analytics = await visit(world, `?gclid=Cj0-analyse-${tag}`, "analytics only", people[3]!);
  assertEqual(analytics.eventId, undefined, "no event id without marketing consent");

  const phone = sha256("+31612345678");
  const g = await arrival(world, fromGoogle);
  assertEqual(g.destination, { accountId: "1234567890", conversionActionId: ACTIONS.lead }, "destination");
  assertEqual(g.event.adIdentifiers, { gclid }, "the gclid");
  assertEqual(g.event.consent, CONSENT, "consent of the Google visitor");
  assertEqual(
    g.event.userData,
    { userIdentifiers: [{ emailAddress: sha256(people[0]!.email.toLowerCase()) }, { phoneNumber: phone }] },
    "hashed e-mail and E.164 phone",
  );
  for (const quote of [fromMeta, direct]) {
    const other = await arrival(world, quote);
    assertEqual(other.event.adIdentifiers, undefined, "no Google click id");
    assertEqual(other.event.consent, CONSENT, "consent granted");
    assert(
      JSON.stringify(other.event.userData).includes(phone),
      "matched on the hashed e-mail and phone alone",
    );
  }
  await waitFor(
    () => world.meta.accepted().find((r) => r.event.event_id === fromMeta.eventId),
    30_000,
    "the Meta visitor's Lead at Meta",
  );

  // Staff sign the Google visitor's lead: Google gets the contract with the commission.
  await admin.reload();
  await openTab(admin, "Lease Aanvragen");
  const detail = await openLead(admin, people[0]!.companyName);
  await saveStage(admin, detail, "Offerte verstuurd", { Maandbedrag: "349,50" }, "Offerte");
  await saveStage(admin, detail, "Contract getekend", { Commissie: "1200" }, "Getekend");
  const signed = await waitFor(
    () =>
      world.google
        .accepted()
        .find(
          (r) =>
            r.destination.conversionActionId === ACTIONS.getekend &&
            (r.event.adIdentifiers as { gclid?: string } | undefined)?.gclid === gclid,
        ),
    30_000,
    "the contract at Google",
  );
  assertEqual([signed.event.conversionValue, signed.event.currency], [1200, "EUR"], "the commission in EUR");
  // The detail names what each event carried.
  const google = detail.getByTestId("lead-conversions").locator('[data-platform="google"]');
  await google.getByText("Gematcht met: e-mail, telefoon, klik-id").first().waitFor();

  // The analytics-only visitor reached neither stand-in.
  const third = sha256(people[3]!.email.toLowerCase());
  assert(
    !JSON.stringify(world.google.received).includes(third),
    "nothing at Google without marketing consent",
  );
  assert(!JSON.stringify(world.meta.received).includes(third), "nothing at Meta without marketing consent");
  assert(!JSON.stringify(world.google.received).includes(`Cj0-analyse-${tag}`), "no click id either");

  // "Testgebeurtenis versturen": Meta with its test code, Google validate-only.
  await openTab(admin, "Social Media Pixels");
  const metaCard = admin.getByTestId("conversies-meta");
  await metaCard.getByLabel("Testcode").fill("TEST4242");
  await metaCard.getByRole("button", { name: "Testgebeurtenis versturen" }).click();
  await metaCard.getByRole("status").getByText("Facebook/Meta antwoordde 200").waitFor();
  assert(
    world.meta.received.some((r) => r.testEventCode === "TEST4242"),
    "Meta's test event with its code",
  );
  const googleCard = admin.getByTestId("conversies-google");
  const counted = world.google.accepted().length;
  await googleCard.getByRole("button", { name: "Testgebeurtenis versturen" }).click();
  await googleCard.getByRole("status").getByText("Google antwoordde 200").waitFor();
  assert(world.google.received.at(-1)?.validateOnly === true, "Google's test event is validate-only");
  assertEqual(world.google.accepted().length, counted, "the test event is not counted");
});
