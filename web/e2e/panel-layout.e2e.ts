// The panel's layout: every tab fits a desktop, a tablet and a phone without sideways scrolling
// (long links in mail too), and a notice never covers a request's Bellen and Verwijderen buttons.
import { assert, waitFor, test, MOBILE } from "./fixtures";
import { dismissNotice, expectNotice, openTab, postLeadFrom, signedInPage } from "./admin/helpers";

test("admin: works on a desktop, a tablet and a phone without sideways scrolling", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  // Long unbroken text, as real mail has: a tracking link and a long address.
  const longUrl = `https://www.autoscout24.nl/aanbod/${"volkswagen-id-buzz-pro-".repeat(8)}e2e?utm_source=nieuwsbrief`;
  await world.sql.query(
    `INSERT INTO mailer.email_messages
       (source, source_id, subject, sender_name, sender_email, recipient_email, message_body, message_type)
     VALUES ('e2e', gen_random_uuid(), 'Lange link', 'Klant', 'klantenservice.zakelijk.noordholland@voorbeeldautolease.nl',
             'info@example.nl', $1, 'contact_form')`,
    [`Zie deze auto: ${longUrl}`],
  );
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 768, height: 1024 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const tab of ["Analytics", "Lease Aanvragen", "Theme Instellingen", "E-mail Inbox"]) {
      await openTab(page, tab);
      assert((await overflow()) <= 0, `${tab} at ${viewport.width}px: ${await overflow()}px too wide`);
      if (tab === "Lease Aanvragen") {
        // The filters are wide enough to read what is chosen or typed (not squeezed beside buttons).
        for (const label of ["Status", "Kanaal", "Campagne"]) {
          const width = (await page.getByLabel(label, { exact: true }).boundingBox())?.width ?? 0;
          assert(width >= 150, `${label} filter at ${viewport.width}px is ${width}px wide`);
        }
      }
      if (tab !== "Analytics") continue;
      // The chart is drawn at its own width: its 11 px labels are not scaled down on a phone.
      const scale = async () =>
        page.getByTestId("visitor-chart").evaluate((svg) => {
          const box = (svg as SVGSVGElement).viewBox.baseVal;
          return svg.getBoundingClientRect().width / box.width;
        });
      await waitFor(
        async () => Math.abs((await scale()) - 1) < 0.02,
        5000,
        `chart drawn 1:1 at ${viewport.width}px`,
      );
    }
    await page.getByRole("button", { name: "Vernieuwen" }).click();
    await page.getByTestId("inbox-item").filter({ hasText: "Lange link" }).first().click();
    await page.getByText(longUrl).waitFor();
    assert((await overflow()) <= 0, `an open e-mail at ${viewport.width}px: ${await overflow()}px too wide`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("a notice does not cover the request's Bellen and Verwijderen buttons", async ({ world }) => {
  const page = await signedInPage(world);
  await postLeadFrom(world, "melding@panel-e2e.nl", "Melding BV");
  // Short enough that the action row can sit at the bottom of the window, where notices appeared.
  for (const viewport of [{ width: 1280, height: 640 }, MOBILE]) {
    await page.setViewportSize(viewport);
    await openTab(page, "Lease Aanvragen");
    await page.getByRole("button", { name: "Vernieuwen" }).click();
    const item = page.getByTestId("lease-item").filter({ hasText: "Melding BV" });
    await item.click();
    // Opening marks it read (a request of its own, then the list reloads): settled before the status
    // click, which a re-render in between swallowed on a loaded machine (no notice came).
    await item.getByText("Nieuw", { exact: true }).waitFor({ state: "hidden" });
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
    await waitFor(clear, 3000, "the notice clear of the buttons").catch(async (error: unknown) => {
      if (!covered) throw error;
      const focus = await page.evaluate(() => {
        const a = document.activeElement;
        return a ? `${a.tagName.toLowerCase()} "${(a.textContent ?? "").trim().slice(0, 40)}"` : "none";
      });
      throw new Error(`at ${viewport.width}px the notice covers "${covered}" (focus on ${focus})`);
    });
    await dismissNotice(page);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});
