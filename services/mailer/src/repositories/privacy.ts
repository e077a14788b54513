import type { PrivacyRecord } from "@lease/contracts";
import { addressPattern, withTransaction, type Pool } from "@lease/platform";

// People's data (AVG) in the mailer schema. An e-mail belongs to the person when it is addressed
// to or from the address, belongs to one of their leads (the inbox entry of a quote request or
// contact message, the company's notification about it, an e-mail sent for a lease request), or
// names the address in its subject or body. Rows are answered as stored (the tables' own columns).

export interface MailHeld {
  inboxEmails: PrivacyRecord[];
  /** Each outgoing e-mail (its delivery record), with its sent-mail entry under `mailbox_entry`. */
  sentEmails: PrivacyRecord[];
}

// $1 address, $2 lead ids (text[]), $3 the address pattern.
const OUTGOING = `SELECT o.id FROM mailer.outgoing_emails o
  WHERE lower(btrim(o.to_email)) = $1
     OR o.lease_request_id::text = ANY($2::text[])
     OR split_part(o.dedupe_key, ':', 3) = ANY($2::text[])
     OR o.subject ~* $3 OR o.text_body ~* $3 OR o.html_body ~* $3`;
const MESSAGES = `SELECT m.id FROM mailer.email_messages m
  WHERE lower(btrim(m.sender_email)) = $1 OR lower(btrim(m.recipient_email)) = $1
     OR (m.source <> 'outgoing' AND m.source_id::text = ANY($2::text[]))
     OR (m.source = 'outgoing' AND m.source_id IN (${OUTGOING}))
     OR m.subject ~* $3 OR m.message_body ~* $3`;

const params = (email: string, leadIds: readonly string[]) => [email, leadIds, addressPattern(email)];

export function privacyRepository(pool: Pool) {
  return {
    async find(email: string, leadIds: readonly string[]): Promise<MailHeld> {
      const p = params(email, leadIds);
      const [sent, messages] = await Promise.all([
        pool.query<{ row: PrivacyRecord }>(
          `SELECT to_jsonb(o) || jsonb_build_object('mailbox_entry', to_jsonb(m)) AS row
             FROM mailer.outgoing_emails o
             LEFT JOIN mailer.email_messages m ON m.source = 'outgoing' AND m.source_id = o.id
            WHERE o.id IN (${OUTGOING}) ORDER BY o.created_at`,
          p,
        ),
        pool.query<{ row: PrivacyRecord }>(
          `SELECT to_jsonb(m) AS row FROM mailer.email_messages m
            WHERE m.id IN (${MESSAGES})
              AND NOT (m.source = 'outgoing' AND m.source_id IN (${OUTGOING}))
            ORDER BY m.created_at`,
          p,
        ),
      ]);
      return { inboxEmails: messages.rows.map((r) => r.row), sentEmails: sent.rows.map((r) => r.row) };
    },

    /** Removes all of it in one transaction; answers the counts and the ids removed (for the queue). */
    async erase(
      email: string,
      leadIds: readonly string[],
    ): Promise<{ inboxEmails: number; sentEmails: number; ids: string[] }> {
      return withTransaction(pool, async (client) => {
        const p = params(email, leadIds);
        const messages = await client.query<{ id: string; source: string }>(
          `DELETE FROM mailer.email_messages WHERE id IN (${MESSAGES}) RETURNING id, source`,
          p,
        );
        const sent = await client.query<{ id: string }>(
          `DELETE FROM mailer.outgoing_emails WHERE id IN (${OUTGOING}) RETURNING id`,
          p,
        );
        return {
          inboxEmails: messages.rows.filter((m) => m.source !== "outgoing").length,
          sentEmails: sent.rowCount ?? 0,
          ids: [...messages.rows.map((m) => m.id), ...sent.rows.map((s) => s.id)],
        };
      });
    },

    /** The privacy policy's retention: e-mails (inbox, sent mail, delivery records) older than `days`. */
    async removeOlderThan(
      days: number,
      now = new Date(),
    ): Promise<{ inboxEmails: number; sentEmails: number }> {
      const cutoff = new Date(now.getTime() - days * 24 * 60 * 60_000).toISOString();
      const r = await pool.query<{ inbox: number; sent: number }>(
        `WITH messages AS (DELETE FROM mailer.email_messages WHERE created_at < $1 RETURNING id),
              sent AS (DELETE FROM mailer.outgoing_emails WHERE created_at < $1 RETURNING id)
         SELECT (SELECT count(*) FROM messages)::int AS inbox, (SELECT count(*) FROM sent)::int AS sent`,
        [cutoff],
      );
      return { inboxEmails: r.rows[0]!.inbox, sentEmails: r.rows[0]!.sent };
    },
  };
}
export type MailPrivacyRepository = ReturnType<typeof privacyRepository>;
