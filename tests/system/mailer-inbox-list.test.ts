import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INBOX_CURSOR_HEADER,
  INBOX_TOTAL_HEADER,
  INBOX_UNREAD_HEADER,
  type EmailMessageList,
} from "@lease/contracts";
import { startPipeline, type Pipeline } from "./mail-pipeline";

// More e-mails than one page: the list is capped by `limit`, the counts cover the whole inbox.
let p: Pipeline;
let cookie: string;
beforeAll(async () => {
  p = await startPipeline();
  cookie = await p.adminCookie();
  await p.sql.query(
    `INSERT INTO mailer.email_messages
       (source, source_id, subject, sender_name, sender_email, recipient_email, message_body,
        message_type, is_read, created_at)
     SELECT 'test', gen_random_uuid(), 'Bericht ' || i, 'Afzender', 'a@b.nl', 'c@d.nl', 'Tekst',
            'contact_form', i % 3 = 0, now() - i * interval '1 minute'
     FROM generate_series(1, 520) AS i`,
  );
});
afterAll(async () => {
  await p?.stop();
});

const list = (query = "") => fetch(`${p.mailer!.url}/api/admin/emails${query}`, { headers: { cookie } });

describe("GET /api/admin/emails", () => {
  it("returns the newest 500 by default with the whole inbox counted in headers", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const items = (await res.json()) as EmailMessageList;
    expect(items).toHaveLength(500);
    expect(items[0]!.subject).toBe("Bericht 1");
    expect(items[499]!.subject).toBe("Bericht 500");
    expect(res.headers.get(INBOX_TOTAL_HEADER)).toBe("520");
    // i % 3 = 0 are read: 173 of 1..520, so 347 unread.
    expect(res.headers.get(INBOX_UNREAD_HEADER)).toBe("347");
  });

  it("returns more on request, down to the oldest", async () => {
    const items = (await (await list("?limit=1000")).json()) as EmailMessageList;
    expect(items).toHaveLength(520);
    expect(items.at(-1)!.subject).toBe("Bericht 520");
  });

  it("pages through the whole inbox with the cursor, without gaps or repeats", async () => {
    const seen: string[] = [];
    let query = "?limit=200";
    for (let pages = 0; pages < 10; pages++) {
      const res = await list(query);
      expect(res.status).toBe(200);
      const items = (await res.json()) as EmailMessageList;
      seen.push(...items.map((e) => e.subject));
      const next = res.headers.get(INBOX_CURSOR_HEADER);
      if (!next) break;
      query = `?limit=200&before=${encodeURIComponent(next)}`;
    }
    expect(seen).toEqual(Array.from({ length: 520 }, (_, i) => `Bericht ${i + 1}`));
  });

  it("keeps a page stable when new e-mails arrive on top", async () => {
    const first = await list("?limit=3");
    const cursor = first.headers.get(INBOX_CURSOR_HEADER)!;
    await p.sql.query(
      `INSERT INTO mailer.email_messages
         (source, source_id, subject, sender_name, sender_email, recipient_email, message_body,
          message_type, created_at)
       VALUES ('test', gen_random_uuid(), 'Nieuw', 'A', 'a@b.nl', 'c@d.nl', 'Tekst', 'contact_form', now())`,
    );
    const next = (await (
      await list(`?limit=3&before=${encodeURIComponent(cursor)}`)
    ).json()) as EmailMessageList;
    expect(next.map((e) => e.subject)).toEqual(["Bericht 4", "Bericht 5", "Bericht 6"]);
    await p.sql.query(`DELETE FROM mailer.email_messages WHERE subject = 'Nieuw'`);
  });

  it("pages through e-mails that share a creation time, to the microsecond", async () => {
    // Three at .123999 and five at .123456: the same millisecond, which a JS Date would merge. On a
    // day 60 days ago, within the retention (a year), so the mailer's retention pass never takes them.
    const day = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    await p.sql.query(
      `INSERT INTO mailer.email_messages
         (source, source_id, subject, sender_name, sender_email, recipient_email, message_body,
          message_type, created_at)
       SELECT 'test', gen_random_uuid(), 'Gelijk ' || i, 'A', 'a@b.nl', 'c@d.nl', 'Tekst', 'contact_form',
              $1::timestamptz +
                CASE WHEN i <= 3 THEN interval '0.123999 seconds' ELSE interval '0.123456 seconds' END
       FROM generate_series(1, 8) AS i`,
      [`${day} 00:00:00+00`],
    );
    const seen: EmailMessageList = [];
    let cursor: string | null = `${day}T00:00:01.000000Z_ffffffff-ffff-ffff-ffff-ffffffffffff`;
    while (cursor) {
      const res = await list(`?limit=2&before=${encodeURIComponent(cursor)}`);
      seen.push(...((await res.json()) as EmailMessageList));
      cursor = res.headers.get(INBOX_CURSOR_HEADER);
      if (cursor) expect(cursor).toMatch(new RegExp(`^${day}T00:00:00\\.123(999|456)Z_[0-9a-f-]{36}$`));
    }
    expect(seen.map((e) => e.subject).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `Gelijk ${i + 1}`));
    expect(new Set(seen.map((e) => e.id)).size).toBe(8);
    expect(seen.slice(0, 3).every((e) => Number(e.subject.split(" ")[1]) <= 3)).toBe(true);
    await p.sql.query(`DELETE FROM mailer.email_messages WHERE subject LIKE 'Gelijk %'`);
  });

  it("answers a bad limit or cursor with 400 and a message, never a 500", async () => {
    for (const bad of [
      "limit=0",
      "limit=abc",
      "limit=5001",
      "limit=1.5",
      "before=abc",
      "before=2026-01-01_x",
    ]) {
      const res = await list(`?${bad}`);
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toBeTruthy();
    }
  });

  it("is for admins only", async () => {
    expect((await fetch(`${p.mailer!.url}/api/admin/emails`)).status).toBe(401);
  });
});
