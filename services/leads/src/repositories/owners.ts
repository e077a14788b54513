import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AssignmentRule, LeadOwner, StaffJobData } from "@lease/contracts";
import { auditEvent, type Database } from "@lease/platform";
import { contactMessages, leaseRequests, ownerChanges, staff } from "../db/schema";
import { queueAudit, type Tx } from "./lease-requests";

/** A lease request is open (it has someone to answer it) until it is signed or lost. */
export const OPEN_STATUSES = ["nieuw", "bekeken", "gereageerd", "offerte"];
const OPEN_STATUSES_SQL = `ARRAY['nieuw', 'bekeken', 'gereageerd', 'offerte']`;

/** The rule in force, in SQL (no settings row: the default, round-robin). */
const RULE_SQL = `COALESCE((SELECT settings->>'assignment' FROM leads.response_settings WHERE id = 1), 'round-robin')`;

/** An admin's open leads, in SQL: open lease requests and contact messages not answered yet. */
const OPEN_LEADS_SQL = (admin: string) => `(
  (SELECT count(*) FROM leads.lease_requests r WHERE r.owner_id = ${admin} AND r.status = ANY(${OPEN_STATUSES_SQL}))
  + (SELECT count(*) FROM leads.contact_messages m WHERE m.owner_id = ${admin} AND m.first_response_at IS NULL))`;

/**
 * The admins who may get a new lead now, each with its position by name (`pos`) and their number
 * (`n`): round-robin takes position `turn mod n`.
 */
const ELIGIBLE_SQL = `SELECT admin_id, row_number() OVER (ORDER BY username, admin_id) - 1 AS pos, count(*) OVER () AS n
  FROM leads.staff WHERE active AND takes_new_leads`;

/**
 * Who the rule picks: least-open the admin with the fewest open leads, and among equals (and for
 * round-robin, among all) the one at the turn's position, then the next ones by name.
 */
const RULE_ORDER_SQL = (
  turn: string,
) => `CASE WHEN ${RULE_SQL} = 'least-open' THEN ${OPEN_LEADS_SQL("s.admin_id")} ELSE 0 END,
  (e.pos - ${turn} % e.n + e.n) % e.n`;

/**
 * CTEs that give a new lead its owner by the rule in force, within the lead's own statement:
 * `claimed` (admin_id, username) is the admin picked, or no row (manual, or nobody takes new
 * leads). Each lead takes the next turn (a sequence), so two leads arriving at once on two replicas
 * take two different turns and so two different admins. The pick is locked FOR SHARE: an admin
 * being disabled holds their row until that commits, after which they are no candidate (the next
 * one by name is taken), and the hand-over of their leads waits for this lead and takes it along.
 */
export const ASSIGN_CTES = `
  turn AS (SELECT nextval('leads.assignment_turn') AS n),
  eligible AS (${ELIGIBLE_SQL}),
  claimed AS (
    SELECT s.admin_id, s.username FROM leads.staff s JOIN eligible e ON e.admin_id = s.admin_id, turn t
     WHERE s.active AND s.takes_new_leads AND ${RULE_SQL} <> 'manual'
     ORDER BY ${RULE_ORDER_SQL("t.n")} LIMIT 1 FOR SHARE OF s
  )`;

export type StaffRow = typeof staff.$inferSelect;

/** The admins as leads knows them, assignment and the hand-over of a leaving admin's leads. */
export function ownersRepository(db: Database) {
  /** The next owner by the rule among the locked candidates (the caller holds them), or null. */
  async function pickOwner(tx: Tx, rule: AssignmentRule, except: string): Promise<StaffRow | null> {
    if (rule === "manual") return null;
    const { rows } = await tx.execute<{ admin_id: string }>(
      sql`WITH turn AS (SELECT nextval('leads.assignment_turn') AS n), eligible AS (${sql.raw(ELIGIBLE_SQL)})
        SELECT s.admin_id FROM leads.staff s JOIN eligible e ON e.admin_id = s.admin_id, turn t
         WHERE s.admin_id <> ${except}
         ORDER BY ${sql.raw(RULE_ORDER_SQL("t.n"))} LIMIT 1`,
    );
    const id = rows[0]?.admin_id;
    if (!id) return null;
    const [row] = await tx.select().from(staff).where(eq(staff.adminId, id));
    return row ?? null;
  }

  return {
    /** The owners of these leads by id (the staff table is a team: tens of rows). */
    async owners(ids: readonly (string | null)[]): Promise<Map<string, LeadOwner>> {
      const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
      if (wanted.length === 0) return new Map();
      const rows = await db
        .select({ id: staff.adminId, username: staff.username })
        .from(staff)
        .where(inArray(staff.adminId, wanted));
      return new Map(rows.map((r) => [r.id, r]));
    },

    async find(adminId: string): Promise<StaffRow | undefined> {
      const [row] = await db.select().from(staff).where(eq(staff.adminId, adminId));
      return row;
    },

    /**
     * The gateway's news of an admin (a newer revision only). When the admin stops being active
     * (disabled, removed), their open leads go to others by the rule in force, in the same
     * transaction, each with a timeline row; under "manual" they are left without owner, which the
     * panel shows. Answers how many leads were handed on.
     */
    async apply(data: StaffJobData): Promise<{ handedOn: number }> {
      return db.transaction(async (tx) => {
        // Every candidate's row, in one order, so a concurrent new lead waits or takes another.
        await tx.execute(sql`SELECT admin_id FROM leads.staff ORDER BY admin_id FOR UPDATE`);
        const [before] = await tx.select().from(staff).where(eq(staff.adminId, data.adminId));
        if (before && before.revision >= data.revision) return { handedOn: 0 };
        const values = {
          username: data.username,
          active: data.active,
          removed: data.removed,
          takesNewLeads: data.takesNewLeads,
          revision: data.revision,
          notifyEmail: data.notifyEmail,
          overdueEmail: data.overdueEmail,
          weeklySummary: data.weeklySummary,
          updatedAt: new Date(),
        };
        await tx
          .insert(staff)
          .values({ adminId: data.adminId, ...values })
          .onConflictDoUpdate({ target: staff.adminId, set: values });
        if (data.active || (before && !before.active)) return { handedOn: 0 };
        return { handedOn: await handOn(tx, data.adminId) };
      });

      async function handOn(tx: Tx, leaving: string): Promise<number> {
        const { rows } = await tx.execute<{ rule: AssignmentRule }>(sql.raw(`SELECT ${RULE_SQL} AS rule`));
        const rule = rows[0]!.rule;
        const open = await tx
          .select({ id: leaseRequests.id })
          .from(leaseRequests)
          .where(and(eq(leaseRequests.ownerId, leaving), inArray(leaseRequests.status, OPEN_STATUSES)))
          .orderBy(leaseRequests.createdAt)
          .for("update");
        for (const lead of open) {
          const next = await pickOwner(tx, rule, leaving);
          await tx
            .update(leaseRequests)
            .set({ ownerId: next?.adminId ?? null })
            .where(eq(leaseRequests.id, lead.id));
          await tx
            .insert(ownerChanges)
            .values({ leaseRequestId: lead.id, ownerId: next?.adminId ?? null, reason: "handover" });
        }
        const messages = await tx
          .select({ id: contactMessages.id })
          .from(contactMessages)
          .where(and(eq(contactMessages.ownerId, leaving), isNull(contactMessages.firstResponseAt)))
          .for("update");
        for (const message of messages) {
          const next = await pickOwner(tx, rule, leaving);
          await tx
            .update(contactMessages)
            .set({ ownerId: next?.adminId ?? null })
            .where(eq(contactMessages.id, message.id));
        }
        return open.length + messages.length;
      }
    },

    /**
     * Reassigns a lease request by hand (audited, on the timeline). Undefined when the lead does not
     * exist; "inactive" when the admin cannot own leads (disabled, removed or unknown).
     */
    async reassign(
      leadId: string,
      ownerId: string,
      by: string,
    ): Promise<{ changed: boolean } | "inactive" | undefined> {
      return db.transaction(async (tx) => {
        const [target] = await tx.select().from(staff).where(eq(staff.adminId, ownerId)).for("share");
        if (!target?.active) return "inactive";
        const [lead] = await tx
          .select({ ownerId: leaseRequests.ownerId })
          .from(leaseRequests)
          .where(eq(leaseRequests.id, leadId))
          .for("update");
        if (!lead) return undefined;
        if (lead.ownerId === ownerId) return { changed: false };
        await tx.update(leaseRequests).set({ ownerId }).where(eq(leaseRequests.id, leadId));
        await tx
          .insert(ownerChanges)
          .values({ leaseRequestId: leadId, ownerId, reason: "manual", changedBy: by });
        await queueAudit(tx, auditEvent(by, "lead.owner_changed", leadId, `→ ${target.username}`));
        return { changed: true };
      });
    },
  };
}
export type OwnersRepository = ReturnType<typeof ownersRepository>;
