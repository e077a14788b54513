import type { PrivacyRecord } from "@lease/contracts";
import { redactMentions, withTransaction, type Pool } from "@lease/platform";

// People's data (AVG) in the mailer schema. An e-mail is *about* the person when their address is
// its own field or it belongs to one of their leads: sent to the address, received from it (the
// sender of an inbox entry), sent for one of their lease requests, or the inbox entry and the
// company's notification of one of their quote requests or contact messages. Rows are answered as
// stored (the tables' own columns). An e-mail that merely mentions the address in its subject or
// text (another person's message, the notification about someone else's lead) is not theirs: the
// erasure replaces the address in it with "[gewist]" and keeps it. The recipient of an inbox
// entry is the company, never the person, so it matches nothing. A reply received for one of their
// leads is theirs whoever sent it; its attachments are listed with it and go with it (a trigger
// removes a received e-mail's message and attachments with its inbox entry).

export interface MailHeld {
  inboxEmails: PrivacyRecord[];
  /** Each outgoing e-mail (its delivery record), with its sent-mail entry under `mailbox_entry`. */
  sentEmails: PrivacyRecord[];
}

// $1 address, $2 lead ids (text[]).
const OUTGOING = `SELECT o.id FROM mailer.outgoing_emails o
  WHERE lower(btrim(o.to_email)) = $1
     OR o.lease_request_id::text = ANY($2::text[])
     OR split_part(o.dedupe_key, ':', 3) = ANY($2::text[])`;
const MESSAGES = `SELECT m.id FROM mailer.email_messages m
  WHERE (m.source <> 'outgoing' AND lower(btrim(m.sender_email)) = $1)
     OR (m.source <> 'outgoing' AND m.source_id::text = ANY($2::text[]))
     OR (m.source = 'inbound' AND m.source_id IN (SELECT i.id FROM mailer.inbound_emails i
                                                   WHERE i.lease_request_id::text = ANY($2::text[])))
     OR (m.source = 'outgoing' AND m.source_id IN (${OUTGOING}))`;
/** A received e-mail's attachments (name, type, size; never the bytes), for the export. */
const ATTACHMENTS = `(SELECT COALESCE(jsonb_agg(jsonb_build_object('file_name', a.file_name,
    'content_type', a.content_type, 'size_bytes', a.size_bytes) ORDER BY a.position), '[]'::jsonb)
   FROM mailer.inbound_attachments a WHERE m.source = 'inbound' AND a.inbound_email_id = m.source_id)`;

/** Text of the e-mails that stay (other people's), where the address may be mentioned. */
const MENTION_COLUMNS = [
  ["mailer.email_messages", "subject"],
  ["mailer.email_messages", "message_body"],
  ["mailer.email_messages", "sender_name"],
  ["mailer.outgoing_emails", "subject"],
  ["mailer.outgoing_emails", "text_body"],
  ["mailer.outgoing_emails", "html_body"],
  ["mailer.inbound_emails", "html_body"],
  ["mailer.inbound_emails", "to_addresses"],
  ["mailer.inbound_emails", "cc_addresses"],
] as const;

export function privacyRepository(pool: Pool) {
  return {
    async find(email: string, leadIds: readonly string[]): Promise<MailHeld> {
      const p = [email, leadIds];
      const [sent, messages] = await Promise.all([
        pool.query<{ row: PrivacyRecord }>(
          `SELECT to_jsonb(o) || jsonb_build_object('mailbox_entry', to_jsonb(m)) AS row
             FROM mailer.outgoing_emails o
             LEFT JOIN mailer.email_messages m ON m.source = 'outgoing' AND m.source_id = o.id
            WHERE o.id IN (${OUTGOING}) ORDER BY o.created_at`,
          p,
        ),
        pool.query<{ row: PrivacyRecord }>(
          `SELECT to_jsonb(m) || jsonb_build_object('attachments', ${ATTACHMENTS}) AS row FROM mailer.email_messages m
            WHERE m.id IN (${MESSAGES}) AND m.source <> 'outgoing'
            ORDER BY m.created_at`,
          p,
        ),
      ]);
      return { inboxEmails: messages.rows.map((r) => r.row), sentEmails: sent.rows.map((r) => r.row) };
    },

    /**
     * Whether the address is one the company itself used: the recipient of its inbox or of its
     * notifications, or the sender of its e-mails (the current settings are checked by the caller).
     */
    async isCompanyAddress(email: string): Promise<boolean> {
      const r = await pool.query<{ hit: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM mailer.email_messages m
                         WHERE lower(btrim(m.recipient_email)) = $1 AND m.source <> 'outgoing')
             OR EXISTS (SELECT 1 FROM mailer.email_messages m
                         WHERE lower(btrim(m.sender_email)) = $1 AND m.source = 'outgoing')
             OR EXISTS (SELECT 1 FROM mailer.outgoing_emails o
                         WHERE lower(btrim(o.to_email)) = $1 AND o.kind = 'notification') AS hit`,
        [email],
      );
      return r.rows[0]!.hit;
    },

    /**
     * Removes the person's e-mails and replaces the address in the others, in one transaction;
     * answers the counts and the ids removed (for the queue).
     */
    async erase(
      email: string,
      leadIds: readonly string[],
    ): Promise<{ inboxEmails: number; sentEmails: number; mentions: number; ids: string[] }> {
      return withTransaction(pool, async (client) => {
        const p = [email, leadIds];
        const messages = await client.query<{ id: string; source: string }>(
          `DELETE FROM mailer.email_messages WHERE id IN (${MESSAGES}) RETURNING id, source`,
          p,
        );
        const sent = await client.query<{ id: string }>(
          `DELETE FROM mailer.outgoing_emails WHERE id IN (${OUTGOING}) RETURNING id`,
          p,
        );
        // The jobs that told leads of their leads' e-mails (pending, or kept a week once published).
        await client.query(
          `DELETE FROM mailer.outbox WHERE job_name = 'mail.lead-activity' AND payload->>'leaseRequestId' = ANY($1::text[])`,
          [leadIds],
        );
        // Their leads' reply tokens: a later reply to an old e-mail is then no longer put on anything.
        await client.query(`DELETE FROM mailer.reply_tokens WHERE lease_request_id::text = ANY($1::text[])`, [
          leadIds,
        ]);
        const mentions = await redactMentions(client, email, MENTION_COLUMNS);
        // Audit entries in the outbox (waiting for the relay, or kept a week after it) keep who did
        // what when but no longer name the person's lead, as the gateway does in the audit log.
        await client.query(
          `UPDATE mailer.outbox SET payload = jsonb_set(payload, '{target}', '"[gewist]"')
            WHERE job_name = 'audit.record' AND payload->>'target' = ANY($1::text[])`,
          [leadIds],
        );
        return {
          inboxEmails: messages.rows.filter((m) => m.source !== "outgoing").length,
          sentEmails: sent.rowCount ?? 0,
          mentions,
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
