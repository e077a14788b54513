import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import {
  AuditLogPage,
  PrivacyErasure,
  PrivacyExport,
  PrivacySummary,
  type PrivacyKind,
} from "@lease/contracts";
import {
  addressPattern,
  addressRegExp,
  createLogger,
  createQueueClient,
  createRedis,
  type QueueClient,
} from "@lease/platform";
import { privacyRepository } from "@lease/leads";
import { mailPrivacyRepository, startMailer } from "@lease/mailer";
import { startSendgridReceiver, type SendgridReceiver } from "@lease/platform/testing";
import { adminFetch, startFullStack, type FullStack } from "./stack";

// Through the whole backend: what is held about an e-mail address (leads, mailer,
// tracking) is found, exported as one JSON file and erased, after which no column of any table
// of the database and no Redis key holds the address or the person's lead ids; the audit log
// records the export and the erasure without the address. Also: a partial failure and its retry,
// and the retention of the privacy policy.

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

let stack: FullStack;
let receiver: SendgridReceiver;
let cookie: string;
let sql: pg.Pool;
let bull: ReturnType<typeof createRedis>;
let queue: QueueClient;

beforeAll(async () => {
  receiver = await startSendgridReceiver();
  stack = await startFullStack({
    SENDGRID_API_BASE_URL: receiver.url,
    LEAD_RATE_LIMIT: "100000",
    WORKER_NICE: "0",
    FLUSH_INTERVAL_MS: "100",
  });
  cookie = await stack.adminCookie();
  sql = new pg.Pool({ connectionString: stack.db.url, max: 2 });
  bull = createRedis(stack.env.REDIS_URL!, "bullmq", createLogger("test", "silent"));
  queue = createQueueClient(bull, stack.env.REDIS_PREFIX!);
  const res = await call("PUT", "/api/admin/company-settings", {
    companyName: "Privacy Lease BV",
    emailAddress: "verkoop@privacylease.nl",
    sendgridApiKey: "SG.privacy-0123456789abcdef",
    fromEmailAddress: "noreply@privacylease.nl",
  });
  expect(res.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await queue?.close();
  bull?.disconnect();
  await stack?.stop();
  await receiver?.close();
});

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  adminFetch(stack, cookie, method, path, body, { "user-agent": CHROME, ...headers });

async function until<T>(probe: () => Promise<T | false | undefined | null>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const count = async (query: string, params: unknown[] = []) =>
  Number((await sql.query<{ n: string }>(query, params)).rows[0]!.n);

/**
 * A person with a quote request, a contact message, a note, a status change and an e-mail sent;
 * `mention`: another address their messages name.
 */
async function person(email: string, tag: string, mention?: string) {
  const also = mention ? ` Mijn collega ${mention} wil er ook een.` : "";
  const quote = await call("POST", "/api/lease-requests", {
    carUrl: `https://www.autoscout24.nl/aanbod/${tag}`,
    contactNumber: "06 12345678",
    email,
    companyName: `Klant ${tag} BV`,
    message: `Graag een offerte (${tag}).${also}`,
  });
  expect(quote.status).toBe(201);
  const leadId = ((await quote.json()) as { id: string }).id;
  const contact = await call("POST", "/api/contact", {
    name: `Persoon ${tag}`,
    email: email.toUpperCase(),
    message: `Bel mij terug over ${tag}, alstublieft.${also}`,
  });
  expect(contact.status).toBe(201);
  const contactId = ((await contact.json()) as { id: string }).id;
  expect(
    (await call("POST", `/api/admin/lease-requests/${leadId}/notes`, { body: `Notitie ${tag}` })).status,
  ).toBe(201);
  expect(
    (
      await call("PATCH", `/api/admin/lease-requests/${leadId}/status`, {
        status: "gereageerd",
        isRead: true,
      })
    ).status,
  ).toBe(200);
  const sent = await call("POST", "/api/admin/send-email", {
    to: email,
    subject: `Uw offerte ${tag}`,
    message: "Beste klant, hierbij de offerte waar u om vroeg.",
    leaseRequestId: leadId,
  });
  expect(sent.status).toBe(202);
  // The mailer logged both leads and notified the company; tracking counted both conversions.
  const ids = [leadId, contactId];
  let seen = "";
  await until(async () => {
    const inbox = await count(
      "SELECT count(*) AS n FROM mailer.email_messages WHERE source_id = ANY($1::uuid[])",
      [ids],
    );
    const notified = await count(
      "SELECT count(*) AS n FROM mailer.outgoing_emails WHERE split_part(dedupe_key, ':', 3) = ANY($1::text[]) AND status = 'sent'",
      [ids],
    );
    const conversions = await count(
      "SELECT count(*) AS n FROM tracking.conversions WHERE lead_id = ANY($1::uuid[])",
      [ids],
    );
    seen = `inbox ${inbox}, notified ${notified}, conversions ${conversions}`;
    return inbox === 2 && notified === 2 && conversions === 2;
  }, "the leads logged, notified and counted").catch((err: Error) => {
    throw new Error(`${err.message} (${seen})`);
  });
  return { leadId, contactId };
}

/** Every text, json and uuid column of every table of the database holding the address or an id. */
async function findEverywhere(needles: { email: string; ids: string[] }): Promise<string[]> {
  const columns = await sql.query<{
    table_schema: string;
    table_name: string;
    column_name: string;
    data_type: string;
  }>(
    `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE t.table_type = 'BASE TABLE'
        AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
        AND c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json', 'uuid')`,
  );
  expect(columns.rows.length).toBeGreaterThan(20);
  const schemas = new Set(columns.rows.map((c) => c.table_schema));
  for (const schema of ["leads", "mailer", "tracking", "gateway", "settings"])
    expect(schemas).toContain(schema);
  const hits: string[] = [];
  for (const c of columns.rows) {
    const ident = `"${c.table_schema}"."${c.table_name}"`;
    const col = `"${c.column_name}"`;
    const n =
      c.data_type === "uuid"
        ? await count(`SELECT count(*) AS n FROM ${ident} WHERE ${col} = ANY($1::uuid[])`, [needles.ids])
        : await count(`SELECT count(*) AS n FROM ${ident} WHERE ${col}::text ~* $1 OR ${col}::text ~* $2`, [
            addressPattern(needles.email),
            needles.ids.join("|"),
          ]);
    if (n > 0) hits.push(`${c.table_schema}.${c.table_name}.${c.column_name} (${n})`);
  }
  return hits;
}

/** Every Redis key of this run holding the address or an id (jobs, their histories, anything). */
async function findInRedis(needles: { email: string; ids: string[] }): Promise<string[]> {
  const redis = stack.redis;
  // The address as an address, not inside a longer one (the other person's holds this one).
  const address = addressRegExp(needles.email);
  const hits: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${stack.env.REDIS_PREFIX}*`, "COUNT", 500);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      let content: unknown;
      if (type === "string") content = await redis.get(key);
      else if (type === "hash") content = await redis.hgetall(key);
      else if (type === "list") content = await redis.lrange(key, 0, -1);
      else if (type === "set") content = await redis.smembers(key);
      else if (type === "zset") content = await redis.zrange(key, 0, -1);
      else if (type === "stream") content = await redis.xrange(key, "-", "+");
      const text = (key + JSON.stringify(content)).toLowerCase();
      if (address.test(text) || needles.ids.some((id) => text.includes(id))) hits.push(key);
    }
  } while (cursor !== "0");
  return hits;
}

describe("people's data (AVG)", () => {
  const email = "privacy.persoon@klant.nl";

  it("finds, exports and erases everything held about an address, and the audit log never names it", async () => {
    const mine = await person("Privacy.Persoon@Klant.nl", "mine");
    const other = await person("jan.privacy.persoon@klant.nl", "other");
    // A staff note on the other person's lead that mentions this address.
    const mention = await call("POST", `/api/admin/lease-requests/${other.leadId}/notes`, {
      body: `Collega van ${email.toUpperCase()}, belt ook.`,
    });
    expect(mention.status).toBe(201);
    // An audit entry about an e-mail naming the address, and a job that still holds it in Redis,
    // kept by BullMQ as the history of a queue.
    await sql.query(
      "INSERT INTO gateway.audit_log (actor, action, target, detail) VALUES ('admin', 'email.sent', NULL, $1)",
      [`E-mail aan ${email.toUpperCase()} verstuurd`],
    );
    await queue
      .raw("mail")
      .add(
        "mail.send",
        { outgoingEmailId: "00000000-0000-4000-8000-000000000001", note: `voor ${email}` },
        { delay: 3_600_000, jobId: "privacy-test-delayed" },
      );

    // The walks below do find the person before the erasure.
    const before = await findEverywhere({ email, ids: [mine.leadId, mine.contactId] });
    for (const table of [
      "leads.lease_requests.email",
      "mailer.outgoing_emails.to_email",
      "gateway.audit_log.detail",
      "tracking.conversions.lead_id",
    ])
      expect(before.some((hit) => hit.startsWith(`${table} `))).toBe(true);
    expect(await findInRedis({ email, ids: [] })).toHaveLength(1);

    const search = await call("POST", "/api/admin/privacy/search", { email: `  ${email.toUpperCase()} ` });
    expect(search.status).toBe(200);
    const summary = PrivacySummary.parse(await search.json());
    const counts = Object.fromEntries(summary.kinds.map((k) => [k.kind, k.count])) as Record<
      PrivacyKind,
      number
    >;
    expect(counts).toEqual({
      leaseRequests: 1,
      contactMessages: 1,
      notes: 1,
      statusChanges: 1,
      inboxEmails: 2,
      // The e-mail sent to the person and the company's two notifications about the leads.
      sentEmails: 3,
      conversions: 2,
    });
    const quotes = summary.kinds.find((k) => k.kind === "leaseRequests")!;
    expect(quotes.first).toBe(quotes.last);
    expect(Date.parse(quotes.first!)).toBeGreaterThan(Date.now() - 5 * 60_000);

    const exported = await call("POST", "/api/admin/privacy/export", { email });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(
      /^attachment; filename="persoonsgegevens-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const file = PrivacyExport.parse(await exported.json());
    expect(file.Persoonsgegevens).toBe(email);
    expect(file["Opgesteld op"]).toMatch(/^\d{1,2} [a-z]+ \d{4} \d{2}:\d{2}$/);
    expect(file.Offerteaanvragen).toEqual([
      {
        "Ontvangen op": expect.stringMatching(/^\d{1,2} [a-z]+ \d{4} \d{2}:\d{2}$/),
        Bedrijfsnaam: "Klant mine BV",
        "E-mailadres": "Privacy.Persoon@Klant.nl",
        Telefoonnummer: "06 12345678",
        "Link naar de auto": "https://www.autoscout24.nl/aanbod/mine",
        "Looptijd (maanden)": null,
        Bericht: "Graag een offerte (mine).",
        Status: "Gereageerd",
        "Maandbedrag (offerte of contract)": null,
        "Looptijd contract (maanden)": null,
        "Reden verloren": null,
        "Toelichting verloren": null,
        "Opvolgen op": null,
      },
    ]);
    expect(file.Contactberichten).toMatchObject([{ Bericht: "Bel mij terug over mine, alstublieft." }]);
    expect(file.Notities).toMatchObject([
      { Tekst: "Notitie mine", Bij: expect.stringMatching(/^Offerteaanvraag van /) },
    ]);
    expect(file.Statuswijzigingen).toMatchObject([{ Van: "Nieuw", Naar: "Gereageerd" }]);
    expect(file["E-mails"].map((e) => e.Onderwerp)).toContain("Uw offerte mine");
    expect(file["E-mails"]).toHaveLength(5);
    expect(file.Bezoekherkomst).toHaveLength(2);
    // No ids, hashes or technical rows: nothing a person cannot read.
    const text = JSON.stringify(file);
    for (const id of [mine.leadId, mine.contactId, other.leadId]) expect(text).not.toContain(id);
    expect(text).not.toMatch(/email_key|phone_key|dedupe_key|session_key|_at"/);

    // Admin only, same origin, explicit confirmation.
    expect(
      (await call("POST", "/api/admin/privacy/erase", { email, confirm: "WISSEN" }, { cookie: "" })).status,
    ).toBe(401);
    expect(
      (
        await call(
          "POST",
          "/api/admin/privacy/erase",
          { email, confirm: "WISSEN" },
          { origin: "https://evil.example" },
        )
      ).status,
    ).toBe(403);
    const unconfirmed = await call("POST", "/api/admin/privacy/erase", { email });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("WISSEN");
    expect((await call("POST", "/api/admin/privacy/search", { email: "geen-adres" })).status).toBe(400);

    const erased = await call("POST", "/api/admin/privacy/erase", { email, confirm: "WISSEN" });
    expect(erased.status).toBe(200);
    const result = PrivacyErasure.parse(await erased.json());
    expect(result.removed).toMatchObject({
      leaseRequests: 1,
      contactMessages: 1,
      notes: 1,
      statusChanges: 1,
      outbox: 6,
      inboxEmails: 2,
      sentEmails: 3,
      conversions: 2,
      // One entry mentioning the address, three naming a lead (its status change, its note, the
      // e-mail sent).
      auditEntries: 4,
      // The staff note on the other person's lead.
      mentions: 1,
    });
    expect(result.removed.jobs).toBeGreaterThanOrEqual(1);

    const needles = { email, ids: [mine.leadId, mine.contactId] };
    expect(await findEverywhere(needles)).toEqual([]);
    expect(await findInRedis(needles)).toEqual([]);
    // The other person, whose address holds this one, keeps everything.
    const notes = await sql.query<{ body: string }>(
      "SELECT body FROM leads.lead_notes WHERE lease_request_id = $1 ORDER BY created_at",
      [other.leadId],
    );
    expect(notes.rows.map((n) => n.body)).toEqual(["Notitie other", "Collega van [gewist], belt ook."]);
    expect(await count("SELECT count(*) AS n FROM leads.lease_requests WHERE id = $1", [other.leadId])).toBe(
      1,
    );
    expect(
      await count("SELECT count(*) AS n FROM mailer.email_messages WHERE source_id = $1", [other.leadId]),
    ).toBe(1);
    expect(
      await count("SELECT count(*) AS n FROM tracking.conversions WHERE lead_id = $1", [other.leadId]),
    ).toBe(1);

    // Idempotent: again, nothing more to remove; the search finds nothing.
    const again = PrivacyErasure.parse(
      await (await call("POST", "/api/admin/privacy/erase", { email, confirm: "WISSEN" })).json(),
    );
    expect(again.total).toBe(0);
    const after = PrivacySummary.parse(
      await (await call("POST", "/api/admin/privacy/search", { email })).json(),
    );
    expect(after.total).toBe(0);

    const log = AuditLogPage.parse(await (await call("GET", "/api/admin/audit-log?limit=200")).json());
    const privacy = log.items.filter((e) => e.action.startsWith("privacy."));
    expect(privacy.map((e) => e.action)).toEqual(["privacy.erased", "privacy.erased", "privacy.exported"]);
    expect(privacy[1]!.detail).toContain("Offerteaanvragen: 1");
    expect(privacy[0]!.detail).toBe("niets gevonden");
    expect(JSON.stringify(log)).not.toMatch(/privacy\.persoon@klant\.nl/i);
  }, 120_000);

  it("exports and erases only what is about a person; mentions are redacted; the company's and the team's addresses are refused", async () => {
    const anna = "anna@wederzijds.nl";
    const bram = "bram@wederzijds.nl";
    const a = await person(anna, "anna", bram);
    const b = await person(bram, "bram", anna.toUpperCase());
    const bramsIds = [b.leadId, b.contactId];

    // Anna's export: her rows, and nothing of Bram's (his messages name her, the company's
    // notifications about his leads too).
    const summary = PrivacySummary.parse(
      await (await call("POST", "/api/admin/privacy/search", { email: anna })).json(),
    );
    expect(Object.fromEntries(summary.kinds.map((k) => [k.kind, k.count]))).toMatchObject({
      leaseRequests: 1,
      contactMessages: 1,
      inboxEmails: 2,
      sentEmails: 3,
      conversions: 2,
    });
    const exported = await call("POST", "/api/admin/privacy/export", { email: anna });
    expect(exported.status).toBe(200);
    const file = PrivacyExport.parse(await exported.json());
    const text = JSON.stringify(file);
    expect(file.Offerteaanvragen).toHaveLength(1);
    expect(file.Contactberichten).toHaveLength(1);
    expect(file["E-mails"]).toHaveLength(5);
    for (const his of [
      "Klant bram BV",
      "Persoon bram",
      "Graag een offerte (bram)",
      "over bram",
      "aanbod/bram",
      "Uw offerte bram",
      ...bramsIds,
    ])
      expect(text).not.toContain(his);
    // Bram's address is in it only where Anna wrote it herself.
    expect(file.Offerteaanvragen[0]!.Bericht).toBe(
      `Graag een offerte (anna). Mijn collega ${bram} wil er ook een.`,
    );

    // The company's own addresses and an admin's name are refused, in Dutch, before anything is read.
    const inboxBefore = await count("SELECT count(*) AS n FROM mailer.email_messages");
    for (const company of ["verkoop@privacylease.nl", " NoReply@PrivacyLease.nl "])
      for (const path of ["search", "export", "erase"]) {
        const body = path === "erase" ? { email: company, confirm: "WISSEN" } : { email: company };
        const refused = await call("POST", `/api/admin/privacy/${path}`, body);
        expect(refused.status).toBe(422);
        const error = (await refused.json()) as { code: string; message: string };
        expect(error.code).toBe("privacy_company_address");
        expect(error.message).toContain("e-mailadres van het bedrijf zelf");
      }
    expect(await count("SELECT count(*) AS n FROM mailer.email_messages")).toBe(inboxBefore);

    // Erasing Anna removes her rows, keeps Bram's, and his text no longer names her.
    const erased = await call("POST", "/api/admin/privacy/erase", { email: anna, confirm: "WISSEN" });
    expect(erased.status).toBe(200);
    const removed = PrivacyErasure.parse(await erased.json()).removed;
    expect(removed).toMatchObject({ leaseRequests: 1, contactMessages: 1, inboxEmails: 2, sentEmails: 3 });
    expect(removed.mentions).toBeGreaterThanOrEqual(4);
    expect(await findEverywhere({ email: anna, ids: [a.leadId, a.contactId] })).toEqual([]);
    const bramsText = await sql.query<{ text: string }>(
      `SELECT message AS text FROM leads.lease_requests WHERE id = $1
       UNION ALL SELECT message FROM leads.contact_messages WHERE id = $2
       UNION ALL SELECT message_body FROM mailer.email_messages WHERE source_id = ANY($3::uuid[])
       UNION ALL SELECT text_body FROM mailer.outgoing_emails WHERE split_part(dedupe_key, ':', 3) = ANY($3::text[])`,
      [b.leadId, b.contactId, bramsIds],
    );
    // His request and message, their two inbox entries and the company's two notifications.
    expect(bramsText.rows).toHaveLength(6);
    for (const row of bramsText.rows) {
      expect(row.text).toContain("[gewist]");
      expect(row.text.toLowerCase()).not.toContain(anna);
    }
    const bramNow = Object.fromEntries(
      PrivacySummary.parse(
        await (await call("POST", "/api/admin/privacy/search", { email: bram })).json(),
      ).kinds.map((k) => [k.kind, k.count]),
    );
    expect(bramNow).toMatchObject({
      leaseRequests: 1,
      contactMessages: 1,
      notes: 1,
      inboxEmails: 2,
      sentEmails: 3,
      conversions: 2,
    });
  }, 120_000);

  it("never alters a row of a longer address that holds the erased one", async () => {
    const erin = "erin-sec@example.test";
    const erinNl = `${erin}.nl`;
    const bob = "bob-sec@example.test";
    const post = async (path: string, body: object) => {
      const res = await call("POST", path, body);
      expect(res.status, path).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const quote = (email: string, message: string) =>
      post("/api/lease-requests", {
        carUrl: "https://www.autoscout24.nl/aanbod/erin",
        contactNumber: "06 12345678",
        email,
        companyName: "Erin BV",
        message,
      });
    // The other Erin (her address holds this one) and the people who mention the other Bob.
    const theirs = [
      await quote(erinNl, `Ik ben ${erinNl}`),
      await post("/api/contact", {
        name: "Carla",
        email: "carla-sec@example.test",
        message: `Bel bob-sec@example.test.nl`,
      }),
      await post("/api/contact", {
        name: "Dirk",
        email: "dirk-sec@example.test",
        message: `Ook ${erinNl.toUpperCase()}, ${erin}-nl, ${erin}_nl, ${erin}+nl en ${erin}2.`,
      }),
    ];
    const erins = await quote(erin, "Graag een offerte.");
    const mentions = await post("/api/contact", {
      name: "Eva",
      email: "eva-sec@example.test",
      message: `Mail ${bob}. Of ${bob.toUpperCase()}, niet bob-sec@example.test.nl.`,
    });
    const ids = [...theirs, mentions];
    await until(
      async () =>
        (await count(
          "SELECT count(*) AS n FROM mailer.outgoing_emails WHERE split_part(dedupe_key, ':', 3) = ANY($1::text[]) AND status = 'sent'",
          [ids],
        )) === ids.length &&
        (await count("SELECT count(*) AS n FROM tracking.conversions WHERE lead_id = ANY($1::uuid[])", [
          ids,
        ])) === ids.length,
      "the company notified of each lead, and tracking counted it",
    );
    const rowsOf = async (of: string[]) =>
      (
        await sql.query<{ row: unknown }>(
          `SELECT to_jsonb(r) AS row FROM leads.lease_requests r WHERE id = ANY($1::uuid[])
           UNION ALL SELECT to_jsonb(c) FROM leads.contact_messages c WHERE id = ANY($1::uuid[])
           UNION ALL SELECT to_jsonb(m) FROM mailer.email_messages m WHERE source_id = ANY($1::uuid[])
           UNION ALL SELECT to_jsonb(o) FROM mailer.outgoing_emails o
                      WHERE split_part(dedupe_key, ':', 3) = ANY($1::text[])
           UNION ALL SELECT to_jsonb(t) FROM tracking.conversions t WHERE lead_id = ANY($1::uuid[])`,
          [of],
        )
      ).rows.map((r) => JSON.stringify(r.row));
    const before = await rowsOf(theirs);
    // Their request, two contact messages, three inbox entries, three notifications, three conversions.
    expect(before).toHaveLength(12);
    expect(before.join()).toContain(`E-mail: ${erinNl}`);
    // Jobs kept in Redis that name each Erin: only the erased one's goes.
    const delayed = { delay: 3_600_000 };
    await queue
      .raw("mail")
      .add("mail.send", { note: `voor ${erinNl}` }, { ...delayed, jobId: "erin-nl-job" });
    await queue.raw("mail").add("mail.send", { note: `voor ${erin}.` }, { ...delayed, jobId: "erin-job" });
    const redisBefore = await findInRedis({ email: erinNl, ids: [] });
    expect(redisBefore.length).toBeGreaterThan(0);

    for (const email of [erin, bob]) {
      const erased = await call("POST", "/api/admin/privacy/erase", { email, confirm: "WISSEN" });
      expect(erased.status).toBe(200);
    }
    expect(await rowsOf(theirs)).toEqual(before);
    expect(await findInRedis({ email: erinNl, ids: [] })).toEqual(redisBefore);
    expect(await queue.raw("mail").getJob("erin-nl-job")).toBeDefined();
    expect(await queue.raw("mail").getJob("erin-job")).toBeUndefined();
    expect(await findEverywhere({ email: erin, ids: [erins] })).toEqual([]);
    // Bob himself is still found where he was mentioned: "[gewist]" at the end of a sentence too.
    const eva = await sql.query<{ message: string }>(
      "SELECT message FROM leads.contact_messages WHERE id = $1",
      [mentions],
    );
    expect(eva.rows[0]!.message).toBe("Mail [gewist]. Of [gewist], niet bob-sec@example.test.nl.");
  }, 60_000);

  it("never rewrites the audit trail of an admin account, whose name may look like an address", async () => {
    const name = "x1@privacylease-team.nl";
    // Another active admin, so this one may be disabled and removed.
    expect((await call("POST", "/api/admin/users", { username: "collega" })).status).toBe(201);
    const created = await call("POST", "/api/admin/users", { username: name });
    expect(created.status).toBe(201);
    const { user } = (await created.json()) as { user: { id: string } };
    expect((await call("PATCH", `/api/admin/users/${user.id}`, { disabled: true })).status).toBe(200);
    expect((await call("PATCH", `/api/admin/users/${user.id}`, { disabled: false })).status).toBe(200);
    const trail = async () =>
      (
        await sql.query(`SELECT id, action, actor, target, detail FROM gateway.audit_log
                          WHERE action NOT LIKE 'privacy.%' ORDER BY at, id`)
      ).rows;
    const before = await trail();
    expect(before.filter((e) => e.target === name).map((e) => e.action)).toEqual(
      expect.arrayContaining(["admin.created", "admin.disabled", "admin.enabled"]),
    );

    // While the account exists or existed, its name is refused as a person's address.
    for (const remove of [false, true]) {
      if (remove)
        expect(
          (
            await call("DELETE", `/api/admin/users/${user.id}`, undefined, {
              "content-type": "application/json",
            })
          ).status,
        ).toBe(204);
      const now = await trail();
      const refused = await call("POST", "/api/admin/privacy/erase", { email: name, confirm: "WISSEN" });
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { message: string }).message).toContain(
        "gebruikersnaam van een beheerder",
      );
      expect(await trail()).toEqual(now);
    }

    // A person's erasure rewrites only entries about a lead or an e-mail: a sign-in entry or one
    // about an admin account that happens to name the address stays as it was.
    const person = "klant.x2@wederzijds.nl";
    await sql.query(
      `INSERT INTO gateway.audit_log (actor, action, target, detail)
       VALUES ($1, 'login.success', NULL, $2), ('admin', 'account.password_changed', NULL, $2),
              ('admin', 'email.sent', NULL, $2)`,
      [person, `aan ${person}`],
    );
    const kept = (await trail()).filter((e) => e.action !== "email.sent");
    const erased = await call("POST", "/api/admin/privacy/erase", { email: person, confirm: "WISSEN" });
    expect(erased.status).toBe(200);
    expect(PrivacyErasure.parse(await erased.json()).removed.auditEntries).toBe(1);
    const after = await trail();
    expect(after.filter((e) => e.action !== "email.sent")).toEqual(kept);
    expect(after.filter((e) => e.action === "email.sent").map((e) => e.detail)).toContain("[gewist]");
  }, 60_000);

  it("reports a partial erasure clearly, and the same request again finishes it", async () => {
    const address = "half.gewist@klant.nl";
    const lead = await person(address, "half");
    const mailerPort = new URL(stack.services.mailer.url).port;
    await stack.services.mailer.stop();
    const failed = await call("POST", "/api/admin/privacy/erase", { email: address, confirm: "WISSEN" });
    expect(failed.status).toBe(502);
    const error = (await failed.json()) as { code: string; message: string };
    expect(error.code).toBe("privacy_incomplete");
    expect(error.message).toContain("Het wissen is niet afgerond");
    expect(error.message).toContain("de e-mail gaf geen antwoord");
    // The mailer went first; the leads, asked last, are still there for the retry.
    expect(await count("SELECT count(*) AS n FROM leads.lease_requests WHERE id = $1", [lead.leadId])).toBe(
      1,
    );

    stack.services.mailer = await startMailer({ ...stack.env, PORT: mailerPort });
    const retried = await call("POST", "/api/admin/privacy/erase", { email: address, confirm: "WISSEN" });
    expect(retried.status).toBe(200);
    const needles = { email: address, ids: [lead.leadId, lead.contactId] };
    expect(await findEverywhere(needles)).toEqual([]);
    expect(await findInRedis(needles)).toEqual([]);
  }, 120_000);
});

describe("retention (the privacy policy's 1 year)", () => {
  it("removes lease requests, contact messages and e-mails older than the period and keeps newer ones", async () => {
    const old = await person("oud@klant.nl", "oud");
    const fresh = await person("nieuw@klant.nl", "nieuw");
    const oldIds = [old.leadId, old.contactId];
    const longAgo = "now() - interval '366 days'";
    await sql.query(`UPDATE leads.lease_requests SET created_at = ${longAgo} WHERE id = $1`, [old.leadId]);
    await sql.query(`UPDATE leads.contact_messages SET created_at = ${longAgo} WHERE id = $1`, [
      old.contactId,
    ]);
    await sql.query(
      `UPDATE mailer.outgoing_emails SET created_at = ${longAgo}
        WHERE lease_request_id = $1 OR split_part(dedupe_key, ':', 3) = ANY($2::text[])`,
      [old.leadId, oldIds],
    );
    await sql.query(
      `UPDATE mailer.email_messages SET created_at = ${longAgo}
        WHERE source_id = ANY($1::uuid[]) OR lower(recipient_email) = 'oud@klant.nl'`,
      [oldIds],
    );

    const leads = privacyRepository(sql);
    const mail = mailPrivacyRepository(sql);
    expect(await leads.removeOlderThan(365)).toEqual({ leaseRequests: 1, contactMessages: 1 });
    expect(await mail.removeOlderThan(365)).toMatchObject({ inboxEmails: 3, sentEmails: 3 });
    // A second replica running it too finds nothing left.
    expect(await leads.removeOlderThan(365)).toEqual({ leaseRequests: 0, contactMessages: 0 });

    const held = async (address: string) =>
      PrivacySummary.parse(
        await (await call("POST", "/api/admin/privacy/search", { email: address })).json(),
      );
    const oldLeft = Object.fromEntries((await held("oud@klant.nl")).kinds.map((k) => [k.kind, k.count]));
    expect(oldLeft).toMatchObject({
      leaseRequests: 0,
      contactMessages: 0,
      notes: 0,
      statusChanges: 0,
      inboxEmails: 0,
      sentEmails: 0,
    });
    const freshLeft = Object.fromEntries((await held("nieuw@klant.nl")).kinds.map((k) => [k.kind, k.count]));
    expect(freshLeft).toMatchObject({
      leaseRequests: 1,
      contactMessages: 1,
      notes: 1,
      inboxEmails: 2,
      sentEmails: 3,
    });
    expect(fresh.leadId).not.toBe(old.leadId);
  }, 120_000);
});
