// The conversation on the lead, as staff live it: a follow-up goes out from the lead; the customer's
// reply comes back through SendGrid's Inbound Parse (posted here exactly as SendGrid posts it) and
// appears live in the open panel, on the lead and in the inbox; its HTML shows no script and loads
// nothing remote until "Afbeeldingen tonen"; its attachment downloads.
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { eventWebhookKeys, inboundParseForm, signEventBatch } from "@lease/platform/testing";
import type { InboundUrl } from "@lease/contracts";
import { assert, assertEqual, expect, test, waitFor } from "./fixtures";
import { adminApi, expectNotice, openTab, postLead, saveSettings } from "./admin/helpers";

const MAIL = { key: "SG.e2e-replies-0123456789", sender: "noreply@antwoord-e2e.nl" };
const REMOTE_IMAGE = "https://images.example.test/pixel.png";
// Ceilings of waits on real state (a send through the queue, a reply through the outbox to leads):
// generous, since a loaded machine may take long; a passing run waits only as long as it takes.
const PIPELINE_MS = 60_000;
const PAGE_MS = 30_000;

/** A lead of this test's own (its tag in the address and name), the mail provider set up for it. */
async function leadWithMail(page: Page, word: string, company: string) {
  const tag = randomBytes(3).toString("hex");
  const lead = { email: `${word}.${tag}@example.nl`, companyName: `${company} ${tag} BV` };
  await saveSettings(page, {
    companyName: `${company} Lease E2E`,
    sendgridApiKey: MAIL.key,
    fromEmailAddress: MAIL.sender,
  });
  return { tag, lead };
}

test("admin: a customer's reply arrives live on the open lead and in the inbox, shown safely, its attachment downloads", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  const { tag, lead } = await leadWithMail(page, "antwoord", "Antwoord");
  assertEqual(
    (
      await adminApi(page, "PUT", "/api/admin/email-settings/inbound", {
        replyAddress: "antwoord@reply.e2e.nl",
      })
    ).status,
    200,
    "reply address saved",
  );
  const parse = (await adminApi<InboundUrl>(page, "POST", "/api/admin/email-settings/inbound-url", {})).body;
  await postLead(world, lead);

  // The follow-up from the lead's detail, as staff send it.
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByTestId("lease-item").filter({ hasText: lead.companyName }).click();
  const [compose] = await Promise.all([
    signedIn.context.waitForEvent("page"),
    page.getByRole("button", { name: "E-mail Versturen" }).click(),
  ]);
  const message = compose.getByLabel("Bericht");
  await waitFor(
    async () => (await message.inputValue()).includes("[Voeg hier"),
    PAGE_MS,
    "the pre-filled body",
  );
  await message.fill(
    (await message.inputValue()).replace("[Voeg hier uw persoonlijke bericht toe]", "Hierbij de offerte."),
  );
  await compose.getByRole("button", { name: "Verzenden" }).click();
  const sent = await waitFor(
    () => world.receiver.accepted().find((m) => m.to[0] === lead.email),
    PIPELINE_MS,
    "the follow-up at SendGrid",
  );
  assert(
    /^antwoord\+[a-z2-7]{16}@reply\.e2e\.nl$/.test(sent.replyTo ?? ""),
    `Reply-To names the lead: ${sent.replyTo}`,
  );

  // The customer answers; SendGrid posts the reply while the lead is open in the panel.
  const remote: string[] = [];
  await page.route("https://images.example.test/**", (route) => {
    remote.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "image/png", body: Buffer.alloc(0) });
  });
  const pdf = Buffer.from("%PDF-1.4 offerte getekend");
  const { body, contentType } = inboundParseForm({
    from: `Klant <${lead.email}>`,
    to: sent.replyTo!,
    subject: `Re: ${sent.subject}`,
    text: "Akkoord, getekend retour.",
    html: `<p id="reply-text">Akkoord, getekend retour.</p><script>window.__owned = 1</script><img src="x" onerror="window.__owned = 2"><img src="${REMOTE_IMAGE}" alt="logo"><a href="https://klant.example/">onze site</a><form action="https://evil.example"><input name="q"></form>`,
    messageId: `reply-${tag}@example.nl`,
    attachments: [{ filename: "getekend.pdf", type: "application/pdf", content: pdf }],
  });
  // Live means the panel's socket is up when the reply arrives: wait for it, not for a while.
  await page.locator('[data-live="true"]').waitFor({ timeout: PAGE_MS });
  const posted = await fetch(`${world.baseUrl}${parse.path}`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: new Uint8Array(body),
  });
  assertEqual(posted.status, 200, "Inbound Parse's post stored");

  await page.getByTestId("notice").filter({ hasText: "Nieuw Antwoord" }).waitFor({ timeout: PAGE_MS });
  const reply = page.getByTestId("timeline-item").filter({ hasText: `Antwoord van Klant <${lead.email}>` });
  await reply.waitFor({ timeout: PIPELINE_MS });
  await expect(reply.getByTestId("timeline-reply")).toContainText("Akkoord, getekend retour.");
  await expect(reply.getByRole("link", { name: "getekend.pdf" })).toBeVisible();

  // Answered from the lead: "Re: …" once, the customer's words quoted, threaded to the same lead.
  const [answer] = await Promise.all([
    signedIn.context.waitForEvent("page"),
    reply.getByRole("button", { name: "Beantwoorden" }).click(),
  ]);
  const answerBody = answer.getByLabel("Bericht");
  await waitFor(
    async () => (await answerBody.inputValue()).includes("> Akkoord"),
    PAGE_MS,
    "the quoted reply",
  );
  assertEqual(await answer.getByLabel("Onderwerp").inputValue(), `Re: ${sent.subject}`, "one Re:");
  assertEqual(await answer.getByLabel("Aan").inputValue(), lead.email, "to the customer");
  assert((await answerBody.inputValue()).includes(`schreef Klant <${lead.email}>:`), "who wrote it");
  await answerBody.fill(`Dank u, wij nemen contact op.${await answerBody.inputValue()}`);
  const answers = world.receiver.accepted().filter((m) => m.to[0] === lead.email).length;
  await answer.getByRole("button", { name: "Verzenden" }).click();
  const answered = await waitFor(
    () => world.receiver.accepted().filter((m) => m.to[0] === lead.email)[answers],
    PIPELINE_MS,
    "the answer at SendGrid",
  );
  assertEqual(answered.replyTo, sent.replyTo, "the answer's replies come back to the same lead");
  // Threaded in the customer's mail client under their own e-mail.
  assertEqual(answered.headers["In-Reply-To"], `<reply-${tag}@example.nl>`, "In-Reply-To the reply");
  assert(
    (answered.headers.References ?? "").endsWith(` <reply-${tag}@example.nl>`),
    `References end with the reply: ${answered.headers.References}`,
  );
  assert(answered.text.includes("> Akkoord, getekend retour."), "the customer's words quoted");

  // In the inbox: unread, an Algemene E-mail naming its lead; opened, its HTML is cleaned.
  await openTab(page, "E-mail Inbox");
  const item = page.getByTestId("inbox-item").filter({ hasText: `Re: ${sent.subject}` });
  await expect(item).toHaveAttribute("data-unread", "true", { timeout: PAGE_MS });
  await expect(item).toContainText("Algemene E-mail");
  await expect(item.getByTestId("lead-name")).toHaveText(`Bij aanvraag van ${lead.companyName}`);
  await item.click();
  const detail = page.getByTestId("email-detail");
  await expect(detail.getByTestId("lead-link")).toHaveText(`Aanvraag van ${lead.companyName}`);
  const html = detail.getByTestId("email-html");
  await expect(html.locator("#reply-text")).toHaveText("Akkoord, getekend retour.");
  assertEqual(await html.locator("script, form, input, [onerror]").count(), 0, "no script, form or handler");
  assertEqual(
    await page.evaluate(() => (window as { __owned?: number }).__owned ?? null),
    null,
    "nothing ran",
  );
  assertEqual(
    await html.getByRole("link", { name: "onze site" }).getAttribute("rel"),
    "noopener noreferrer",
    "rel",
  );
  assertEqual(remote.length, 0, "no remote image loaded before staff asked");
  await detail.getByRole("button", { name: "Afbeeldingen tonen" }).click();
  await waitFor(() => remote.length > 0, PAGE_MS, "the remote image loaded after 'Afbeeldingen tonen'");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    detail.getByRole("link", { name: "getekend.pdf" }).click(),
  ]);
  assertEqual(download.suggestedFilename(), "getekend.pdf", "the attachment's name");
  const saved = await download.path();
  assert(saved !== null, "the attachment downloaded");
});

test("admin: a template kept in E-mail Instellingen fills the compose window; a placeholder left is refused", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  const { tag, lead } = await leadWithMail(page, "sjabloon", "Sjabloon");
  await postLead(world, lead);

  await openTab(page, "E-mail Instellingen");
  const templates = page.getByTestId("email-templates");
  await expect(templates).toContainText("Follow-up op een aanvraag");
  await page.getByRole("button", { name: "Nieuw sjabloon" }).click();
  const form = page.getByTestId("email-template-form");
  await form.getByLabel("Naam").fill(`Offerte ${tag}`);
  await form.getByLabel("Onderwerp").fill("Uw offerte van {{bedrijfsnaam}}");
  await form
    .getByLabel("Bericht", { exact: true })
    .fill("Beste {{klant}},\n\nHierbij de offerte voor {{auto_url}}.\n\n{{handtekening}}");
  await form.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Sjabloon Opgeslagen");

  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByTestId("lease-item").filter({ hasText: lead.companyName }).click();
  const [compose] = await Promise.all([
    signedIn.context.waitForEvent("page"),
    page.getByRole("button", { name: "E-mail Versturen" }).click(),
  ]);
  const message = compose.getByLabel("Bericht");
  await waitFor(
    async () => (await message.inputValue()).includes(`Beste ${lead.companyName},`),
    PAGE_MS,
    "the default follow-up",
  );
  compose.once("dialog", (dialog) => {
    assert(
      dialog.message().includes(`Offerte ${tag}`),
      `the question names the template: ${dialog.message()}`,
    );
    void dialog.accept();
  });
  await compose.getByLabel("Sjabloon").selectOption({ label: `Offerte ${tag}` });
  assertEqual(
    await compose.getByLabel("Onderwerp").inputValue(),
    "Uw offerte van Sjabloon Lease E2E",
    "subject filled",
  );
  assert((await message.inputValue()).startsWith(`Beste ${lead.companyName},`), "the customer filled in");
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await compose.getByText("Vul {{handtekening}} in of haal het weg").first().waitFor();
  await message.fill((await message.inputValue()).replace("{{handtekening}}", "Met vriendelijke groet"));
  await compose.getByRole("button", { name: "Verzenden" }).click();
  const sent = await waitFor(
    () => world.receiver.accepted().find((m) => m.to[0] === lead.email),
    PIPELINE_MS,
    "the templated e-mail at SendGrid",
  );
  assertEqual(sent.subject, "Uw offerte van Sjabloon Lease E2E", "sent subject");
  assert(
    sent.text.includes("Hierbij de offerte voor https://www.autoscout24.nl/aanbod/e2e."),
    "car URL filled",
  );
});

test("admin: a bounce marks the lead's address as not working, in the list and on the lead, so staff call", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  const { tag, lead } = await leadWithMail(page, "bounce", "Bounce");
  const keys = eventWebhookKeys();
  assertEqual(
    (
      await adminApi(page, "PUT", "/api/admin/email-settings/event-webhook", {
        verificationKey: keys.verificationKey,
      })
    ).status,
    200,
    "verification key set",
  );
  const leadId = await postLead(world, lead);
  const queued = await adminApi(page, "POST", "/api/admin/send-email", {
    to: lead.email,
    subject: "Follow-up op uw lease aanvraag",
    message: "Beste klant, hierbij onze offerte.",
    leaseRequestId: leadId,
  });
  assertEqual(queued.status, 202, "follow-up queued");
  const sent = await waitFor(
    () => world.receiver.accepted().find((m) => m.to[0] === lead.email),
    PIPELINE_MS,
    "the follow-up at SendGrid",
  );
  // SendGrid's Event Webhook reports the bounce, signed as SendGrid signs it.
  const now = Math.floor(Date.now() / 1000);
  const batch = signEventBatch(
    [
      {
        event: "bounce",
        email: lead.email,
        timestamp: now,
        sg_event_id: `bounce-${tag}`,
        reason: "550 5.1.1 The email account does not exist",
        outgoing_email_id: sent.customArgs.outgoing_email_id,
      },
    ],
    keys.privateKey,
  );
  const posted = await fetch(`${world.baseUrl}/api/sendgrid/events`, {
    method: "POST",
    headers: batch.headers,
    body: new Uint8Array(batch.body),
  });
  assertEqual(posted.status, 200, "the bounce stored");

  await openTab(page, "Lease Aanvragen");
  const item = page.getByTestId("lease-item").filter({ hasText: lead.companyName });
  // Leads hears of it through the outbox; the list shows it once reloaded.
  await waitFor(
    async () => {
      await page.getByRole("button", { name: "Vernieuwen" }).click();
      return (await item.getByTestId("email-undeliverable").count()) > 0;
    },
    PIPELINE_MS,
    "the address marked in the list",
  );
  await expect(item.getByTestId("email-undeliverable")).toHaveText("E-mailadres werkt niet: bellen");
  await item.click();
  await expect(page.getByTestId("email-undeliverable-note")).toContainText(
    "Dit e-mailadres werkt niet (Onbestelbaar: 550 5.1.1 The email account does not exist); bel de klant.",
  );
});
