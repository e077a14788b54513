// What staff and visitors read, read whole: an inbox entry of a quote calls the sender with a tel
// link and "Beantwoorden" opens the compose window to the sender with "Re: <subject>"; no field's
// placeholder is cut off at 1280 or 390 px; a missing KvK number reads "KvK-nummer op aanvraag".
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { assert, assertEqual, test, waitFor } from "./fixtures";
import { adminApi, openTab, postLead, saveSettings } from "./admin/helpers";

const PHONE = { width: 390, height: 844 };

/** Every visible input whose placeholder is wider than the room the input gives it. */
const cutPlaceholders = (page: Page) =>
  page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d")!;
    const cut: string[] = [];
    for (const input of document.querySelectorAll<HTMLInputElement>("input[placeholder]")) {
      if (!input.placeholder || input.getClientRects().length === 0) continue;
      const style = getComputedStyle(input);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (context.measureText(input.placeholder).width > room + 1)
        cut.push(`${input.id}: "${input.placeholder}"`);
    }
    return cut;
  });

test("inbox: a quote's entry calls the sender by a tel link, and Beantwoorden opens the compose window to the sender with Re: <subject>", async ({
  world,
  signedIn,
}) => {
  const tag = randomBytes(3).toString("hex");
  const email = `antwoord-${tag}@voorbeeld.nl`;
  await postLead(world, { email, companyName: `Antwoord ${tag} BV`, contactNumber: "+31 6 1234 5678" });
  const page = signedIn.page;
  await openTab(page, "E-mail Inbox");
  const entry = page.getByTestId("inbox-item").filter({ hasText: email });
  await waitFor(
    async () => {
      await page.getByRole("button", { name: "Vernieuwen", disabled: false }).click();
      return (await entry.count()) > 0;
    },
    15_000,
    "the quote's entry in the inbox",
  );
  await entry.click();
  const detail = page.getByTestId("email-detail");
  const call = detail.getByRole("link", { name: "+31 6 1234 5678" });
  assertEqual(await call.getAttribute("href"), "tel:+31612345678", "the sender's phone as a tel link");
  const subject = (await detail.getByRole("heading").first().innerText()).trim();

  const [compose] = await Promise.all([
    signedIn.context.waitForEvent("page"),
    detail.getByRole("button", { name: "Beantwoorden" }).click(),
  ]);
  await compose.waitForURL(/\/email-compose\?replyTo=/);
  await waitFor(
    async () => (await compose.getByLabel("Aan").inputValue()) === email,
    10_000,
    "to the sender",
  );
  assertEqual(await compose.getByLabel("Onderwerp").inputValue(), `Re: ${subject}`, "Re: and the subject");
  await compose.close();
});

test("placeholders: none is cut off on Lease Aanvragen, Pixels and Logboek at 1280 and 390 px", async ({
  signedIn,
}) => {
  const page = signedIn.page;
  // A stored token: its field says so below it (a placeholder that said it was cut off).
  const saved = await adminApi(page, "PUT", "/api/admin/conversion-settings", {
    tiktok: { enabled: false, accessToken: "tiktok-plaatshouder-token-0123456789" },
  });
  assertEqual(saved.status, 200, "a token stored");
  for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
    await page.setViewportSize(viewport);
    for (const tab of ["Lease Aanvragen", "Social Media Pixels", "Logboek"]) {
      await openTab(page, tab);
      await page.locator("main input").first().waitFor();
      if (tab === "Social Media Pixels")
        await page.getByText("Opgeslagen. Typ een nieuw token om het te vervangen.").first().waitFor();
      assertEqual(
        await cutPlaceholders(page),
        [],
        `no placeholder cut off on ${tab} at ${viewport.width} px`,
      );
    }
    await openTab(page, "Lease Aanvragen");
    const hint = page.getByText("Op e-mail, bedrijf, telefoon of auto-URL");
    await hint.waitFor();
    await page.screenshot({ path: test.info().outputPath(`zoeken-${viewport.width}.png`) });
  }
});

test("contact section and footer: a missing KvK or BTW number reads as one natural line", async ({
  world,
  signedIn,
}) => {
  await saveSettings(signedIn.page, { kvkNumber: "", btwNumber: "" });
  const { page } = await world.open("/");
  const footer = page.locator("footer");
  await footer.getByText("KvK-nummer op aanvraag", { exact: true }).waitFor();
  await footer.getByText("BTW-nummer op aanvraag", { exact: true }).waitFor();
  const contact = page.locator("#contact");
  await contact.getByText("KvK-nummer op aanvraag", { exact: true }).waitFor();
  const text = `${await footer.innerText()}\n${await contact.innerText()}`;
  assert(!text.includes("KvK: KvK") && !text.includes("BTW: BTW"), "no label before its own fallback");
});

/** Whether the visible notice's box overlaps the element's. */
async function covers(page: Page, selector: string): Promise<boolean> {
  const notice = await page.getByTestId("notice").boundingBox();
  const target = await page.locator(selector).first().boundingBox();
  assert(notice && target, `the notice and ${selector} are shown`);
  return (
    notice.x < target.x + target.width &&
    target.x < notice.x + notice.width &&
    notice.y < target.y + target.height &&
    target.y < notice.y + notice.height
  );
}

test("notices: a failure in Gebruikers never covers the username being typed, nor one in the compose window its title, at 1280 and 390 px", async ({
  signedIn,
}) => {
  const page = signedIn.page;
  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    await page.setViewportSize(viewport);
    await openTab(page, "Gebruikers");
    const field = page.locator("#nieuwe-gebruiker");
    await field.fill("admin");
    await field.press("Enter");
    await page.getByTestId("notice").filter({ hasText: "Aanmaken mislukt" }).waitFor();
    await page.waitForTimeout(200);
    assert(
      !(await covers(page, "#nieuwe-gebruiker")),
      `the username field stays free at ${viewport.width} px`,
    );
    await page.screenshot({ path: test.info().outputPath(`gebruikers-melding-${viewport.width}.png`) });
    await page.getByRole("button", { name: "Melding sluiten" }).click();
  }

  // The compose window: a send the server refuses, as it does without a mail provider.
  await saveSettings(page, { sendgridApiKey: "", fromEmailAddress: "" });
  const compose = await signedIn.context.newPage();
  await compose.setViewportSize({ width: 900, height: 800 });
  await compose.goto(page.url().replace(/\/admin.*$/, "/email-compose"));
  await compose.getByRole("heading", { name: "E-mail Opstellen" }).waitFor();
  await compose.getByLabel("Aan").fill("klant@voorbeeld.nl");
  await compose.getByLabel("Onderwerp").fill("Uw offerte");
  await compose.getByLabel("Bericht").fill("Hierbij uw offerte, met vriendelijke groet.");
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await compose.getByTestId("notice").filter({ hasText: "Fout bij Verzenden" }).waitFor();
  await compose.waitForTimeout(200);
  assert(!(await covers(compose, "h1")), "the compose window's title stays free");
  await compose.screenshot({ path: test.info().outputPath("opstellen-melding.png") });
  await compose.close();
});
