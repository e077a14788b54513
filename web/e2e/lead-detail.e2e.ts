// A lead's detail as staff use it: "Mogelijk dubbel" says of which earlier request (a link that
// opens it) and why; with the keyboard, opening a lead from the list moves focus to the detail's
// heading, so the next Tab is in the detail, at 1280 px and on a 390 px phone.
import { randomBytes, randomInt } from "node:crypto";
import type { Page } from "@playwright/test";
import { assert, assertEqual, test, waitFor } from "./fixtures";
import { openLead, openTab, postLead } from "./admin/helpers";

const PHONE = { width: 390, height: 844 };

/** The focused element's tag and text (its accessible name where it has one). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return {
      tag: element?.tagName ?? "",
      text: (element?.getAttribute("aria-label") ?? element?.textContent ?? "").trim(),
    };
  });

test("lead detail: Mogelijk dubbel names the earlier request and why, and its link opens that request", async ({
  world,
  signedIn,
}) => {
  const tag = randomBytes(3).toString("hex");
  const email = `dubbel-${tag}@voorbeeld.nl`;
  const first = `Eerste ${tag} BV`;
  // Phone numbers of this test's own (the stack is shared: another lead must not match them).
  const [phone, other] = [randomInt(1e7, 1e8), randomInt(1e7, 1e8)].map((n) => `06${n}`);
  await postLead(world, { email, companyName: first, contactNumber: phone! });
  // The same address typed otherwise, another phone; then a third with the first one's phone.
  const second = {
    email: ` Dubbel-${tag}@Voorbeeld.NL`,
    companyName: `Tweede ${tag} BV`,
    contactNumber: other!,
  };
  await postLead(world, second);
  const spaced = `${phone!.slice(0, 2)} ${phone!.slice(2, 6)} ${phone!.slice(6)}`;
  await postLead(world, {
    email: `ander-${tag}@voorbeeld.nl`,
    companyName: `Derde ${tag} BV`,
    contactNumber: spaced,
  });
  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();

  let detail = await openLead(page, `Tweede ${tag} BV`);
  const note = detail.getByTestId("duplicate-note");
  await note.getByRole("link", { name: new RegExp(`de aanvraag van ${first}`) }).waitFor();
  const said = await note.innerText();
  assert(said.startsWith("Mogelijk dubbel: hetzelfde e-mailadres als de aanvraag van"), `why, got "${said}"`);
  assert(said.includes("eerder vandaag"), `when, got "${said}"`);
  assert(said.includes("binnen 90 dagen"), `the rule, got "${said}"`);

  detail = await openLead(page, `Derde ${tag} BV`);
  await detail
    .getByTestId("duplicate-note")
    .filter({ hasText: "Mogelijk dubbel: hetzelfde telefoonnummer als de aanvraag van" })
    .waitFor();

  // The link opens the earlier request in the detail, its heading focused.
  await detail.getByTestId("duplicate-note").getByRole("link").click();
  await detail.getByRole("heading", { name: first }).waitFor();
  await waitFor(
    async () => (await focused(page)).text === first,
    5000,
    "focus on the earlier request's heading",
  );
  assertEqual(await detail.getByTestId("duplicate-note").count(), 0, "the first request is no duplicate");
  await page.screenshot({ path: test.info().outputPath("dubbel-1280.png") });
});

for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
  test(`lead detail with the keyboard at ${viewport.width} px: Enter on a lead moves focus to its heading, the next Tab goes on in the detail`, async ({
    world,
    signedIn,
  }) => {
    const tag = randomBytes(3).toString("hex");
    const company = `Toetsenbord ${viewport.width} ${tag} BV`;
    const email = `toets-${tag}@voorbeeld.nl`;
    // A phone of its own: the same as another lead's would add a "Mogelijk dubbel" link first.
    await postLead(world, { email, companyName: company, contactNumber: `06${randomInt(1e7, 1e8)}` });
    const page = signedIn.page;
    await page.setViewportSize(viewport);
    await openTab(page, "Lease Aanvragen");

    // Search for the lead with the keyboard, then Tab to it in the list.
    await page.getByLabel("Zoeken", { exact: true }).focus();
    await page.keyboard.type(email);
    await page.keyboard.press("Enter");
    await page.getByTestId("lease-item").filter({ hasText: company }).waitFor();
    await waitFor(
      async () => (await page.getByTestId("lease-item").count()) === 1,
      5000,
      "only the lead found",
    );
    let presses = 0;
    while (!(await focused(page)).text.startsWith(company)) {
      assert(++presses < 30, "the lead reached with Tab");
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
    await waitFor(
      async () => {
        const now = await focused(page);
        return now.tag === "H2" && now.text === company;
      },
      5000,
      "focus on the detail's heading",
    );
    await waitFor(
      () =>
        page.evaluate(() => {
          const box = document.activeElement!.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      5000,
      "the heading in view",
    );
    await page.keyboard.press("Tab");
    assertEqual((await focused(page)).text, email, "the next Tab: the detail's e-mail link");
    await page.screenshot({ path: test.info().outputPath(`toetsenbord-${viewport.width}.png`) });
  });
}
