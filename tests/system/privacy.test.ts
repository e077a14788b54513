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
  createLogger,
  createQueueClient,
  createRedis,
  type QueueClient,
} from "@lease/platform";
import { privacyRepository } from "@lease/leads";
import { mailPrivacyRepository, startMailer } from "@lease/mailer";
import { startSendgridReceiver, type SendgridReceiver } from "@lease/platform/testing";
import { startFullStack, type FullStack } from "./stack";

// Issue 19.5 through the whole backend: what is held about an e-mail address (leads, mailer,
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

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${stack.gateway.url}${path}`, {
    method,
    headers: {
      origin: stack.origin,
      cookie,
      "user-agent": CHROME,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

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

/** A person with a quote request, a contact message, a note, a status change and an e-mail sent. */
async function person(email: string, tag: string) {
  const quote = await call("POST", "/api/lease-requests", {
    carUrl: `https://www.autoscout24.nl/aanbod/${tag}`,
    contactNumber: "06 12345678",
    email,
    companyName: `Klant ${tag} BV`,
    message: `Graag een offerte (${tag}).`,
  });
  expect(quote.status).toBe(201);
  const leadId = ((await quote.json()) as { id: string }).id;
  const contact = await call("POST", "/api/contact", {
    name: `Persoon ${tag}`,
    email: email.toUpperCase(),
    message: `Bel mij terug over ${tag}, alstublieft.`,
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
  const address = new RegExp(
    `(^|[^a-z0-9._%+-])${needles.email.replace(/[.+]/g, "\\$&")}($|[^a-z0-9_-]|\\.($|[^a-z0-9]))`,
  );
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
    // An audit entry naming the address (as an entry about an e-mail sent might) and a job that
    // still holds it in Redis, kept by BullMQ as the history of a queue.
    await sql.query(
      "INSERT INTO gateway.audit_log (actor, action, target, detail) VALUES ('admin', 'login.success', NULL, $1)",
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
    expect(counts).toMatchObject({
      leaseRequests: 1,
      contactMessages: 1,
      notes: 1,
      statusChanges: 1,
      inboxEmails: 2,
      conversions: 2,
    });
    // The e-mail sent to the person and the company's two notifications about the leads.
    expect(counts.sentEmails).toBe(3);
    // Four rows of the two leads' jobs, and the audit entries of the status change and the note
    // (they name the lead).
    expect(counts.outbox).toBe(6);
    const quotes = summary.kinds.find((k) => k.kind === "leaseRequests")!;
    expect(quotes.first).toBe(quotes.last);
    expect(Date.parse(quotes.first!)).toBeGreaterThan(Date.now() - 5 * 60_000);

    const exported = await call("POST", "/api/admin/privacy/export", { email });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(
      /^attachment; filename="persoonsgegevens-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const file = PrivacyExport.parse(await exported.json());
    expect(file.email).toBe(email);
    expect(file.data.leaseRequests[0]).toMatchObject({
      id: mine.leadId,
      email: "Privacy.Persoon@Klant.nl",
      car_url: "https://www.autoscout24.nl/aanbod/mine",
      message: "Graag een offerte (mine).",
      company_name: "Klant mine BV",
    });
    expect(file.data.contactMessages[0]).toMatchObject({
      id: mine.contactId,
      message: "Bel mij terug over mine, alstublieft.",
    });
    expect(file.data.notes[0]).toMatchObject({ body: "Notitie mine" });
    expect(file.data.sentEmails.map((e) => e.subject)).toContain("Uw offerte mine");
    expect(JSON.stringify(file)).not.toContain(other.leadId);

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
    // Tracking went first; the leads, asked last, are still there for the retry.
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
