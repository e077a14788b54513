// A quote from the public site in the panel, against the real stack: sent through the form, it
// appears in Lease Aanvragen as "Nieuw" and is counted; opened, it is read, "Bekeken", and its car
// and e-mail links are safe.
import { assert, assertEqual, test } from "./fixtures";
import {
  counter,
  newLead,
  openLead,
  openTab,
  postNewLead,
  removeAllLeads,
  waitForCounter,
} from "./admin/helpers";

test('admin: a quote sent on the public site appears as "Nieuw" with the counters', async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  await removeAllLeads(world);
  const { page: site } = await world.open("/#aanvraag");
  await site.locator("#aanvraag-auto").fill(LEAD.carUrl);
  await site.locator("#aanvraag-telefoon").fill(LEAD.phone);
  await site.locator("#aanvraag-email").fill(LEAD.email);
  await site.locator("#aanvraag-bedrijf").fill(LEAD.company);
  await site.locator("#aanvraag-looptijd").selectOption("48");
  await site.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await site.getByTestId("aanvraag-succes").waitFor({ timeout: 30_000 });

  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  const item = page.getByTestId("lease-item").filter({ hasText: LEAD.company });
  await item.waitFor();
  assertEqual(await item.getByTestId("badge").first().innerText(), "Nieuw", "badge of a new request");
  assertEqual(await item.getAttribute("data-unread"), "true", "unread highlight");
  assert((await item.innerText()).includes("48 maanden"), "the list shows the term");
  await waitForCounter(page, "Nieuwe Aanvragen", "1");
  assertEqual(await counter(page, "Bekeken"), "0", "Bekeken counter");
  assertEqual(await counter(page, "Gereageerd"), "0", "Gereageerd counter");
  assertEqual(await counter(page, "Totaal"), "1", "Totaal counter");
  await page.getByText("Selecteer een aanvraag om de details te bekijken").waitFor();
});

test('admin: opening the request marks it read and shows it as "Bekeken" with safe links', async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  await removeAllLeads(world);
  await postNewLead(world, LEAD);
  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await waitForCounter(page, "Nieuwe Aanvragen", "1");
  const detail = await openLead(page, LEAD.company);
  await detail.getByTestId("badge").filter({ hasText: "Bekeken" }).waitFor();
  await waitForCounter(page, "Nieuwe Aanvragen", "0");
  // The counters and the status filter go by the badges: the opened request is Bekeken, said so.
  await waitForCounter(page, "Bekeken", "1");
  assertEqual(
    await page.getByTestId("counter-Bekeken").getByTestId("counter-hint").innerText(),
    "Geopend, nog niet gereageerd",
    "what the Bekeken counter counts",
  );
  await page.getByLabel("Status").selectOption("bekeken");
  await page.getByText("Lease Aanvragen (1)").waitFor();
  await page.getByLabel("Status").selectOption("nieuw");
  await page.getByTestId("no-matches").waitFor();
  await page.getByLabel("Status").selectOption("");
  const car = detail.getByRole("link", { name: LEAD.carUrl });
  assertEqual(await car.getAttribute("target"), "_blank", "car link target");
  assertEqual(await car.getAttribute("rel"), "noopener noreferrer", "car link rel");
  assertEqual(
    await detail.getByRole("link", { name: LEAD.email }).getAttribute("href"),
    `mailto:${LEAD.email}`,
    "mail link",
  );
  // Status nieuw-but-read: its badge says Bekeken, so only "Markeer als Gereageerd" is offered.
  await detail.getByRole("button", { name: "Markeer als Gereageerd" }).waitFor();
  assertEqual(
    await detail.getByRole("button", { name: "Markeer als Bekeken" }).count(),
    0,
    "no Markeer als Bekeken beside the Bekeken badge",
  );
});
