// Who answers and how fast (services/leads/README.md), in the panel against the real stack: two
// admins take new leads under round-robin; four quote requests go to them alternately, each showing
// its deadline; one admin logs a call that reached the customer (its first response); a lead left
// past its deadline is shown late and announced to its owner; the list sorts by urgency; disabling
// the other admin hands their open leads on, as the confirmation said.
import type { Page } from "@playwright/test";
import type { AdminUserList, CreatedAdminUser, LeaseRequest } from "@lease/contracts";
import { assert, assertEqual, waitFor, test, ADMIN_USERNAME, type AdminWorld } from "./fixtures";
import { adminApi, dismissNotice, expectNotice, openLead, openTab, postLead } from "./admin/helpers";

const COLLEAGUE = `collega${Date.now().toString(36)}`;

/** Every other admin of the shared stack stops taking new leads (restored at the end). */
async function onlyUsTwo(page: Page): Promise<string[]> {
  const { body } = await adminApi<AdminUserList>(page, "GET", "/api/admin/users");
  const others = body.items.filter(
    (u) => u.username !== ADMIN_USERNAME && u.username !== COLLEAGUE && u.takesNewLeads && !u.disabled,
  );
  for (const user of others)
    await adminApi(page, "PATCH", `/api/admin/users/${user.id}`, { takesNewLeads: false });
  return others.map((u) => u.id);
}

/** Leads hears of the admins through the gateway's outbox: waits until it knows these states. */
async function leadsKnows(world: AdminWorld, states: Record<string, boolean>) {
  await waitFor(
    async () => {
      const rows = (
        await world.sql.query<{ username: string; on: boolean }>(
          "SELECT username, active AND takes_new_leads AS on FROM leads.staff WHERE username = ANY($1)",
          [Object.keys(states)],
        )
      ).rows;
      return Object.entries(states).every(([name, on]) =>
        rows.some((r) => r.username === name && r.on === on),
      );
    },
    15_000,
    `leads knows ${JSON.stringify(states)}`,
  );
}

test("owners: round-robin assignment, deadlines, the call log, a late lead announced, the hand-over", async ({
  world,
}) => {
  test.setTimeout(180_000);
  const { page } = await world.signedIn();
  const created = await adminApi<CreatedAdminUser>(page, "POST", "/api/admin/users", { username: COLLEAGUE });
  assertEqual(created.status, 201, "the colleague created");
  const colleagueId = created.body.user.id;
  const paused = await onlyUsTwo(page);
  const before = await adminApi<{ assignment: string }>(page, "GET", "/api/admin/response-settings");

  try {
    // Gebruikers: each admin's switch, and the response settings: round-robin, a quote within 1 hour.
    await openTab(page, "Gebruikers");
    const colleagueSwitch = page
      .getByTestId("gebruiker")
      .getByRole("switch", { name: `Krijgt nieuwe aanvragen: ${COLLEAGUE}` });
    await colleagueSwitch.uncheck();
    await expectNotice(page, "Opgeslagen", `${COLLEAGUE} krijgt geen nieuwe aanvragen meer.`);
    await colleagueSwitch.check();
    await page
      .getByTestId("notice")
      .filter({ hasText: `${COLLEAGUE} krijgt nieuwe aanvragen.` })
      .waitFor();
    // The next save's notice has the same title: this one goes first.
    await dismissNotice(page);
    const form = page.getByTestId("reactietijden");
    await form.getByLabel("Nieuwe aanvragen toewijzen").selectOption("round-robin");
    await form.getByLabel("Reageren op een offerteaanvraag binnen (uren)").fill("1");
    await form.locator("#termijn-offerte-basis").selectOption("clock");
    await form.getByRole("button", { name: "Opslaan", exact: true }).click();
    await expectNotice(page, "Opgeslagen", "Toewijzing en reactietijden zijn bijgewerkt.");
    await leadsKnows(world, { [ADMIN_USERNAME]: true, [COLLEAGUE]: true });

    // Four quote requests: alternately to the two admins.
    const tag = `Eigen${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++)
      ids.push(await postLead(world, { email: `klant${i}@${tag}.nl`, companyName: `${tag} ${i}` }));
    const owners: (string | undefined)[] = [];
    for (const id of ids) {
      const lead = (await adminApi<LeaseRequest>(page, "GET", `/api/admin/lease-requests/${id}`)).body;
      owners.push(lead.owner?.username);
    }
    assert(
      owners[0] !== owners[1] && owners[0] === owners[2] && owners[1] === owners[3],
      `alternately: ${owners}`,
    );
    assertEqual(new Set(owners), new Set([ADMIN_USERNAME, COLLEAGUE]), "both admins");

    await openTab(page, "Lease Aanvragen");
    await page.getByRole("searchbox", { name: "Zoeken" }).fill(tag);
    await page.getByRole("button", { name: "Zoeken", exact: true }).click();
    const items = page.getByTestId("lease-item");
    await waitFor(async () => (await items.count()) === 4, 10_000, "the four leads listed");
    for (let i = 0; i < 4; i++) {
      const text = await items.filter({ hasText: `${tag} ${i + 1}` }).innerText();
      assert(text.includes(`Eigenaar: ${owners[i]}`), `lead ${i + 1} names its owner: ${text}`);
      assert(/Reageren vóór (ma|di|wo|do|vr|za|zo) \d\d:\d\d/.test(text), `lead ${i + 1} shows its deadline`);
      assert(/Nog (5\d|60) min|Nog 1 uur/.test(text), `lead ${i + 1} shows the time left: ${text}`);
    }
    // "Mijn aanvragen": mine only.
    await page.getByRole("button", { name: "Mijn aanvragen" }).click();
    await waitFor(async () => (await items.count()) === 2, 10_000, "only my two leads");
    await page.getByRole("button", { name: "Mijn aanvragen" }).click();
    await waitFor(async () => (await items.count()) === 4, 10_000, "all four again");

    // The call log: a call that reached the customer is the first response, on the timeline.
    const mine = ids.map((_, i) => i).filter((i) => owners[i] === ADMIN_USERNAME);
    const called = `${tag} ${mine[0]! + 1}`;
    const detail = await openLead(page, called);
    await detail.getByRole("button", { name: "Gesprek vastleggen" }).click();
    const dialog = page.getByRole("dialog", { name: "Hoe ging het gesprek?" });
    await dialog.getByRole("button", { name: "Gesprek opslaan" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Kies hoe het gesprek ging" }).waitFor();
    await dialog.getByLabel("Bereikt").check();
    await dialog.getByLabel("Notitie (optioneel)").fill("Offerte besproken");
    await dialog.getByRole("button", { name: "Gesprek opslaan" }).click();
    await expectNotice(page, "Gesprek vastgelegd");
    await detail.getByTestId("lead-first-response").filter({ hasText: "(gesprek)" }).waitFor();
    await detail.getByText(`Bereikt: gebeld door ${ADMIN_USERNAME}`).waitFor();
    await detail.getByText(`Toegewezen aan ${ADMIN_USERNAME}`).first().waitFor();

    // A lead left past its deadline: shown late, announced prominently to its owner (me).
    const late = ids[mine[1]!]!;
    await world.sql.query(
      "UPDATE leads.lease_requests SET response_due_at = now() - interval '3 hours 5 minutes' WHERE id = $1",
      [late],
    );
    await expectNotice(
      page,
      "Te laat",
      "Jouw lease aanvraag heeft de reactietermijn overschreden zonder reactie.",
    );
    const lateItem = items.filter({ hasText: `${tag} ${mine[1]! + 1}` });
    await lateItem.getByText("3 uur te laat").waitFor();
    await waitFor(
      async () =>
        Number(await page.getByTestId("counter-Te laat").getByTestId("counter-value").innerText()) >= 1,
      10_000,
      "counted under Te laat",
    );
    // Sorted by urgency, the late one comes first.
    await page.getByLabel("Sorteren").selectOption("urgency");
    await waitFor(
      async () => (await items.first().innerText()).includes(`${tag} ${mine[1]! + 1}`),
      10_000,
      "the late lead first",
    );

    // Reassign from the detail: the late lead to the colleague, on its timeline.
    const lateDetail = await openLead(page, `${tag} ${mine[1]! + 1}`);
    await lateDetail.getByLabel("Eigenaar").selectOption({ label: COLLEAGUE });
    await expectNotice(page, "Toegewezen", `De aanvraag is toegewezen aan ${COLLEAGUE}.`);
    await lateDetail.getByText(`Toegewezen aan ${COLLEAGUE}`).first().waitFor();

    // Disabling the colleague: the confirmation says their open leads are handed on; they are.
    await openTab(page, "Gebruikers");
    let question = "";
    page.once("dialog", (d) => {
      question = d.message();
      void d.accept();
    });
    await page
      .getByTestId("gebruiker")
      .getByRole("button", { name: `Uitschakelen: ${COLLEAGUE}` })
      .click();
    await expectNotice(page, "Uitgeschakeld");
    assert(
      question.includes(
        `De open aanvragen van ${COLLEAGUE} gaan naar de andere beheerders die nieuwe aanvragen krijgen`,
      ),
      `the confirmation names the hand-over: ${question}`,
    );
    await waitFor(
      async () => {
        const { rows } = await world.sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM leads.lease_requests r JOIN leads.staff s ON s.admin_id = r.owner_id
            WHERE r.id = ANY($1) AND s.username = $2`,
          [ids, ADMIN_USERNAME],
        );
        return rows[0]!.n === 4;
      },
      15_000,
      "every lead now mine",
    );
  } finally {
    await adminApi(page, "PUT", "/api/admin/response-settings", {
      ...before.body,
      updatedAt: undefined,
      basis: undefined,
    }).catch(() => undefined);
    for (const id of paused) await adminApi(page, "PATCH", `/api/admin/users/${id}`, { takesNewLeads: true });
    await adminApi(page, "DELETE", `/api/admin/users/${colleagueId}`);
  }
});

test("owners: a switch turned off and on again at once stays on while the list's reload is on its way", async ({
  world,
}) => {
  const { page } = await world.signedIn();
  const name = `snel${Date.now().toString(36)}`;
  const created = await adminApi<CreatedAdminUser>(page, "POST", "/api/admin/users", { username: name });
  assertEqual(created.status, 201, "the colleague created");
  try {
    await openTab(page, "Gebruikers");
    const toggle = page
      .getByTestId("gebruiker")
      .getByRole("switch", { name: `Krijgt nieuwe aanvragen: ${name}` });
    await toggle.waitFor();
    // A slow network: a change is answered 2 s after the server made it, the list of admins 1 s
    // after. The reload the first change asks for then answers "off" while the second is on its way.
    await page.route("**/api/admin/users**", async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, route.request().method() === "GET" ? 1000 : 2000));
      await route.fulfill({ response }).catch(() => undefined);
    });
    await toggle.uncheck();
    await expectNotice(page, "Opgeslagen", `${name} krijgt geen nieuwe aanvragen meer.`);
    await toggle.click();
    // What the admin sees over the next seconds: the switch as they clicked it, never back off.
    const seen: boolean[] = [];
    for (const until = Date.now() + 4000; Date.now() < until; await page.waitForTimeout(50))
      seen.push(await toggle.isChecked());
    assert(seen.every(Boolean), `the switch stays on (seen: ${seen.map((on) => (on ? 1 : 0)).join("")})`);
    await page
      .getByTestId("notice")
      .filter({ hasText: `${name} krijgt nieuwe aanvragen.` })
      .waitFor();
    const { body } = await adminApi<AdminUserList>(page, "GET", "/api/admin/users");
    assertEqual(body.items.find((u) => u.username === name)?.takesNewLeads, true, "stored as on");
  } finally {
    await page.unroute("**/api/admin/users**");
    await adminApi(page, "DELETE", `/api/admin/users/${created.body.user.id}`);
  }
});
