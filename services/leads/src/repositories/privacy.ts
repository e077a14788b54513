import type { PrivacyRecord } from "@lease/contracts";
import { redactMentions, withTransaction, type Pool, type PoolClient } from "@lease/platform";

// People's data (AVG) in the leads schema. What is *about* a person: the lease requests and contact
// messages whose own address field is theirs (trimmed, any letter case), and the notes and status
// changes of those requests. Rows are answered as stored (to_jsonb: the table's own column names);
// the gateway turns them into the person's document. The outbox rows of those leads (technical:
// jobs not yet published) are erased with them but never exported. A row that merely mentions the
// address (another person's message, a note on another request) is not theirs: the erasure
// replaces the address in it with "[gewist]" and keeps it.

export interface LeadsHeld {
  leaseRequests: PrivacyRecord[];
  contactMessages: PrivacyRecord[];
  notes: PrivacyRecord[];
  statusChanges: PrivacyRecord[];
}

export type LeadsErased = Record<keyof LeadsHeld | "outbox" | "mentions", number> & { ids: string[] };

/** Free text of other people's leads and of staff notes that may mention someone's address. */
const MENTION_COLUMNS = [
  ["leads.lead_notes", "body"],
  ["leads.lease_requests", "message"],
  ["leads.lease_requests", "company_name"],
  ["leads.contact_messages", "message"],
  ["leads.contact_messages", "name"],
] as const;

const LEASE_REQUESTS = `SELECT id FROM leads.lease_requests WHERE email_key = $1 OR lower(btrim(email)) = $1`;
const CONTACT_MESSAGES = `SELECT id FROM leads.contact_messages WHERE lower(btrim(email)) = $1`;
// The outbox payload holds ids (a job's sourceId, a conversion's leadId, an audit entry's target),
// never an address: only the person's lead ids find their rows (an admin's name in an audit entry
// is never matched).
const OUTBOX = `FROM leads.outbox o
  WHERE o.payload->>'sourceId' = ANY($1::text[]) OR o.payload->>'leadId' = ANY($1::text[])
     OR o.payload->>'target' = ANY($1::text[])`;

async function rows(db: Pool | PoolClient, sql: string, params: unknown[]): Promise<PrivacyRecord[]> {
  const r = await db.query<{ row: PrivacyRecord }>(sql, params);
  return r.rows.map((x) => x.row);
}

export function privacyRepository(pool: Pool) {
  return {
    async find(email: string): Promise<LeadsHeld> {
      const leaseRequests = await rows(
        pool,
        `SELECT to_jsonb(r) AS row FROM leads.lease_requests r WHERE r.id IN (${LEASE_REQUESTS}) ORDER BY r.created_at`,
        [email],
      );
      const contactMessages = await rows(
        pool,
        `SELECT to_jsonb(c) AS row FROM leads.contact_messages c WHERE c.id IN (${CONTACT_MESSAGES}) ORDER BY c.created_at`,
        [email],
      );
      const requestIds = leaseRequests.map((r) => String(r.id));
      const [notes, statusChanges] = await Promise.all([
        rows(
          pool,
          `SELECT to_jsonb(n) AS row FROM leads.lead_notes n WHERE n.lease_request_id = ANY($1::uuid[]) ORDER BY n.created_at`,
          [requestIds],
        ),
        rows(
          pool,
          `SELECT to_jsonb(s) AS row FROM leads.status_changes s WHERE s.lease_request_id = ANY($1::uuid[]) ORDER BY s.changed_at`,
          [requestIds],
        ),
      ]);
      return { leaseRequests, contactMessages, notes, statusChanges };
    },

    /** Removes all of it in one transaction; answers the counts and the ids of the leads removed. */
    async erase(email: string): Promise<LeadsErased> {
      return withTransaction(pool, async (client) => {
        const requests = await client.query<{ id: string }>(`${LEASE_REQUESTS} FOR UPDATE`, [email]);
        const contacts = await client.query<{ id: string }>(`${CONTACT_MESSAGES} FOR UPDATE`, [email]);
        const requestIds = requests.rows.map((r) => r.id);
        const ids = [...requestIds, ...contacts.rows.map((r) => r.id)];
        const count = async (sql: string, params: unknown[]) =>
          (await client.query(sql, params)).rowCount ?? 0;
        const outbox = await count(`DELETE ${OUTBOX}`, [ids]);
        const notes = await count(`DELETE FROM leads.lead_notes WHERE lease_request_id = ANY($1::uuid[])`, [
          requestIds,
        ]);
        const statusChanges = await count(
          `DELETE FROM leads.status_changes WHERE lease_request_id = ANY($1::uuid[])`,
          [requestIds],
        );
        const leaseRequests = await count(`DELETE FROM leads.lease_requests WHERE id = ANY($1::uuid[])`, [
          requestIds,
        ]);
        const contactMessages = await count(`DELETE FROM leads.contact_messages WHERE id = ANY($1::uuid[])`, [
          contacts.rows.map((r) => r.id),
        ]);
        // What stays (another person's lead, a note on it) keeps its text, with the address replaced.
        const mentions = await redactMentions(client, email, MENTION_COLUMNS);
        return { leaseRequests, contactMessages, notes, statusChanges, outbox, mentions, ids };
      });
    },

    /**
     * The retention of the privacy policy: lease requests and contact messages received more than
     * `days` ago go, with their notes and status changes (cascade) and outbox rows. Idempotent, so
     * replicas running it at once only find less to do.
     */
    async removeOlderThan(
      days: number,
      now = new Date(),
    ): Promise<{ leaseRequests: number; contactMessages: number }> {
      const cutoff = new Date(now.getTime() - days * 24 * 60 * 60_000).toISOString();
      const r = await pool.query<{ lease_requests: number; contact_messages: number }>(
        `WITH requests AS (DELETE FROM leads.lease_requests WHERE created_at < $1 RETURNING id),
              contacts AS (DELETE FROM leads.contact_messages WHERE created_at < $1 RETURNING id),
              jobs AS (DELETE FROM leads.outbox WHERE coalesce(payload->>'sourceId', payload->>'leadId') IN
                         (SELECT id::text FROM requests UNION ALL SELECT id::text FROM contacts))
         SELECT (SELECT count(*) FROM requests)::int AS lease_requests,
                (SELECT count(*) FROM contacts)::int AS contact_messages`,
        [cutoff],
      );
      const row = r.rows[0]!;
      return { leaseRequests: row.lease_requests, contactMessages: row.contact_messages };
    },
  };
}
export type PrivacyRepository = ReturnType<typeof privacyRepository>;
