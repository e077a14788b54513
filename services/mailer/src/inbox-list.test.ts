import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INBOX_TOTAL_HEADER, INBOX_UNREAD_HEADER, type EmailMessageList } from "@lease/contracts";
import { startPipeline, type Pipeline } from "./testing/stack";

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

  it("answers a bad limit with 400 and a message, never a 500", async () => {
    for (const bad of ["0", "abc", "5001", "1.5"]) {
      const res = await list(`?limit=${bad}`);
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toBeTruthy();
    }
  });

  it("is for admins only", async () => {
    expect((await fetch(`${p.mailer!.url}/api/admin/emails`)).status).toBe(401);
  });
});
