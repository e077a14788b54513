import { expectAccessible } from "./axe";
import { adminApi, expectNotice, openTab, saveSettings } from "./admin/helpers";
import { assert, assertEqual, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const META_PIXEL = "1234567890123";
const TIKTOK_PIXEL = "C1234567890ABCDEFGH";
const TOKEN = "EAAB-pixels-tab-token-0123456789";

test("Pixels tab: saved pixel ids reach the conversion cards at once, a platform without pixel id or token is refused, a stored token is removed after a question", async ({
  signedIn,
}) => {
  const page = signedIn.page;
  // The worker's stack is shared: start from no pixel ids and no switches or tokens.
  await saveSettings(page, { facebookPixelId: "", tiktokPixelId: "", snapchatPixelId: "" });
  const off = { enabled: false, accessToken: null };
  const reset = await adminApi(page, "PUT", "/api/admin/conversion-settings", {
    meta: off,
    tiktok: off,
    snapchat: off,
  });
  assertEqual(reset.status, 200, "conversions off");
  await page.reload();
  await openTab(page, "Social Media Pixels");

  // The two card sets list the platforms in one order (the conversion cards load on their own).
  await page.getByTestId("conversies-snapchat").waitFor();
  const pixelNames = await page.locator('[data-testid^="pixel-"] h3').allInnerTexts();
  // Google's card has no pixel beside it (an account and credentials instead).
  const conversionNames = await page
    .locator('[data-testid^="conversies-"]:not([data-testid="conversies-google"]) > legend')
    .allInnerTexts();
  assertEqual(pixelNames, ["Facebook/Meta", "TikTok", "Snapchat"], "the pixel cards' order");
  assertEqual(conversionNames, pixelNames, "the conversion cards in the same order");

  // Snapchat switched on with neither a pixel id nor a token, by keyboard: refused, said at the switch.
  const snapchat = page.getByTestId("conversies-snapchat");
  const snapSwitch = snapchat.getByLabel("Conversies versturen");
  await snapSwitch.focus();
  await page.keyboard.press("Space");
  assert(await snapSwitch.isChecked(), "the switch is on");
  await page.getByRole("button", { name: "Conversies Opslaan" }).focus();
  await page.keyboard.press("Enter");
  const alert = snapchat.getByRole("alert");
  await alert.waitFor();
  assertEqual(
    await alert.innerText(),
    "Snapchat: conversies kunnen pas aan met een Pixel ID (bij Social Media Pixels) en een toegangstoken; zonder wordt er niets verstuurd",
    "why Snapchat cannot be switched on",
  );
  assertEqual(await snapSwitch.getAttribute("aria-invalid"), "true", "the switch is marked");
  assertEqual(
    await snapSwitch.getAttribute("aria-describedby"),
    await alert.getAttribute("id"),
    "the message is tied to the switch",
  );
  assert(
    await page.evaluate(() => document.activeElement?.id === "conversies-snapchat-aan"),
    "focus back on the refused switch",
  );
  assertEqual(await page.getByTestId("notice").count(), 0, "no 'Conversies Opgeslagen'");
  // The server refuses it too (a save from elsewhere than this form).
  const direct = await adminApi<{ message: string }>(page, "PUT", "/api/admin/conversion-settings", {
    snapchat: { enabled: true },
  });
  assertEqual(direct.status, 400, "the server refuses it");
  await page.setViewportSize(PHONE);
  await snapchat.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/h-a11y/pixels-refused-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "/tmp/h-a11y/pixels-refused-1280.png", fullPage: true });
  await expectAccessible(page, "Pixels tab with a refused switch");
  await snapSwitch.uncheck();
  await alert.waitFor({ state: "detached" });

  // Meta's and TikTok's pixel ids saved: their conversion cards lose "Geen Pixel ID" without a reload.
  const metaCard = page.getByTestId("conversies-meta");
  const tiktokCard = page.getByTestId("conversies-tiktok");
  await metaCard.getByText("Geen Pixel ID").waitFor();
  await tiktokCard.getByText("Geen Pixel ID").waitFor();
  await page.getByRole("button", { name: "Bewerken" }).click();
  await page.getByTestId("pixel-facebookPixelId").getByLabel("Pixel ID").fill(META_PIXEL);
  await page.getByTestId("pixel-tiktokPixelId").getByLabel("Pixel ID").fill(TIKTOK_PIXEL);
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Pixels Opgeslagen");
  await metaCard.getByText("Geen Pixel ID").waitFor({ state: "detached" });
  await tiktokCard.getByText("Geen Pixel ID").waitFor({ state: "detached" });
  await snapchat.getByText("Geen Pixel ID").waitFor();

  // Meta with its token: saved.
  await metaCard.getByLabel("Conversies versturen").check();
  await metaCard.getByLabel("Toegangstoken").fill(TOKEN);
  await page.getByRole("button", { name: "Conversies Opslaan" }).click();
  await expectNotice(page, "Conversies Opgeslagen");
  await metaCard.getByText("Token opgeslagen").waitFor();

  // Removing it asks first, naming what is lost; "Annuleren" keeps it.
  const questions: string[] = [];
  page.once("dialog", (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await metaCard.getByRole("button", { name: "Token verwijderen" }).click();
  await page.waitForTimeout(300);
  assertEqual(questions.length, 1, "a question before removing");
  assert(
    questions[0]!.includes("toegangstoken van Facebook/Meta") &&
      questions[0]!.includes("conversies naar Facebook/Meta gaan uit"),
    `the question names what is lost: ${questions[0]}`,
  );
  assertEqual(
    (await adminApi<{ meta: { tokenSet: boolean } }>(page, "GET", "/api/admin/conversion-settings")).body.meta
      .tokenSet,
    true,
    "kept after Annuleren",
  );
  page.once("dialog", (dialog) => void dialog.accept());
  await metaCard.getByRole("button", { name: "Token verwijderen" }).click();
  await expectNotice(page, "Token Verwijderd");
  await metaCard.getByText("Geen token").waitFor();
  assert(!(await metaCard.getByLabel("Conversies versturen").isChecked()), "Meta switched off with it");
  const stored = await adminApi<{ meta: { enabled: boolean; tokenSet: boolean } }>(
    page,
    "GET",
    "/api/admin/conversion-settings",
  );
  assertEqual(
    stored.body.meta,
    { enabled: false, tokenSet: false, pixelIdSet: true } as never,
    "removed on the server",
  );
  await page.screenshot({ path: "/tmp/h-a11y/pixels-removed-1280.png", fullPage: true });

  await saveSettings(page, { facebookPixelId: "", tiktokPixelId: "" });
});
