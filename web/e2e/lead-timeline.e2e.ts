// A lead's timeline, against the real stack: a note (refused empty, edited, deleted), a status change
// and an e-mail sent from the compose window, with who did each, newest first.
import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, test, ADMIN_USERNAME } from "./fixtures";
import { expectNotice, openTab, postLeadWithPhone, signedInWithAlerts } from "./admin/helpers";

test("staff: a note, a status change and a sent e-mail on one timeline, newest first", async ({ world }) => {
  const page = await signedInWithAlerts(world);
  const email = `tijdlijn-${Date.now()}@staff-e2e.nl`;
  await postLeadWithPhone(world, email, "Tijdlijn BV");
  await openTab(page, "Lease Aanvragen");
  await page.getByTestId("lease-item").filter({ hasText: email }).first().waitFor();
  await page.getByTestId("lease-item").filter({ hasText: email }).first().click();
  const detail = page.getByTestId("lease-detail");
  const timeline = detail.getByTestId("lead-timeline");
  await timeline.getByText("Aanvraag ontvangen").waitFor();

  // A note: refused empty, saved with text.
  await detail.getByRole("button", { name: "Notitie opslaan" }).click();
  await detail.getByText("Vul een notitie in").waitFor();
  await detail.getByLabel("Notitie toevoegen").fill("Klant gebeld.\nWil een offerte voor 48 maanden.");
  await detail.getByRole("button", { name: "Notitie opslaan" }).click();
  await expectNotice(page, "Notitie Opgeslagen");
  await timeline.getByText(`Notitie van ${ADMIN_USERNAME}`).waitFor();

  // A status change, with who.
  await detail.getByRole("button", { name: "Markeer als Gereageerd" }).click();
  await timeline.getByText(`Status gewijzigd van Nieuw naar Gereageerd door ${ADMIN_USERNAME}`).waitFor();

  // An e-mail sent to the lead from the compose window.
  const context = page.context();
  const [compose] = await Promise.all([
    context.waitForEvent("page"),
    detail.getByRole("button", { name: "E-mail Versturen" }).click(),
  ]);
  await compose.waitForURL(/\/email-compose\?requestId=/);
  await waitFor(
    async () => (await compose.getByLabel("Aan").inputValue()) === email,
    10_000,
    "the pre-filled recipient",
  );
  await compose.getByLabel("Onderwerp").fill("Uw offerte van Tijdlijn");
  await compose.getByLabel("Bericht").fill("Beste klant, in de bijlage vindt u de offerte.");
  const closed = compose.waitForEvent("close", { timeout: 15_000 });
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await closed;
  await timeline.getByText(`E-mail verstuurd aan ${email}`).waitFor({ timeout: 15_000 });

  const kinds = await timeline
    .getByTestId("timeline-item")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-kind")));
  // The lead went to the only admin who takes new leads as it arrived (round-robin).
  assertEqual(kinds.join(","), "email,status,note,owner,received", "one timeline, newest first");
  await timeline.getByText(`Toegewezen aan ${ADMIN_USERNAME}`, { exact: true }).waitFor();
  await expectAccessible(page, "the lead detail with its timeline and follow-up field");

  // The author starts an edit and leaves it with Escape: the text is kept, focus back on Bewerken.
  const edit = timeline.getByRole("button", { name: "Notitie bewerken" });
  await edit.click();
  const field = timeline.getByRole("textbox", { name: "Notitie bewerken" });
  await waitFor(() => field.evaluate((el) => el === document.activeElement), 5000, "focus in the note");
  await page.keyboard.type(" Niet bewaard.");
  await page.keyboard.press("Escape");
  await field.waitFor({ state: "detached" });
  await waitFor(() => edit.evaluate((el) => el === document.activeElement), 5000, "focus back on Bewerken");
  assert(!(await timeline.innerText()).includes("Niet bewaard."), "the cancelled edit is not kept");
  // Then edits and deletes the note.
  await page.keyboard.press("Enter");
  await timeline.getByLabel("Notitie bewerken").fill("Klant gebeld, offerte verstuurd.");
  await timeline.getByRole("button", { name: "Opslaan", exact: true }).click();
  await timeline.getByText(`Notitie van ${ADMIN_USERNAME} (bewerkt)`).waitFor();
  await timeline.getByText("Klant gebeld, offerte verstuurd.").waitFor();
  page.once("dialog", (dialog) => void dialog.accept());
  await timeline.getByRole("button", { name: "Notitie verwijderen" }).click();
  await expectNotice(page, "Notitie Verwijderd");
  await waitFor(
    async () => (await timeline.locator('[data-kind="note"]').count()) === 0,
    5000,
    "the note gone",
  );
});
