import { desc, eq } from "drizzle-orm";
import type { CallOutcome, LeadCall } from "@lease/contracts";
import { auditEvent, type AdminIdentity, type Database } from "@lease/platform";
import { leadCalls } from "../db/schema";
import type { Calendar } from "../domain/working-hours";
import { lockRequest, queueAudit } from "./lease-requests";
import { markFirstResponse } from "./responses";

export type LeadCallRow = typeof leadCalls.$inferSelect;

export const toLeadCall = (row: LeadCallRow): LeadCall => ({
  id: row.id,
  outcome: row.outcome as CallOutcome,
  note: row.note,
  by: row.calledBy,
  at: row.calledAt.toISOString(),
});

/** The calls staff logged ("Bellen"); one that reached the customer is a first response. */
export function callsRepository(db: Database) {
  return {
    /**
     * Logs a call (audited with its outcome, never the note); undefined when the lead does not
     * exist. A call that reached the customer is the lead's first response if none came before.
     */
    async log(
      leaseRequestId: string,
      by: AdminIdentity,
      call: { outcome: CallOutcome; note?: string },
      calendar: Calendar,
    ): Promise<LeadCall | undefined> {
      return db.transaction(async (tx) => {
        if (!(await lockRequest(tx, leaseRequestId))) return undefined;
        const [row] = await tx
          .insert(leadCalls)
          .values({
            leaseRequestId,
            outcome: call.outcome,
            note: call.note ?? null,
            calledBy: by.username,
            calledById: by.id,
          })
          .returning();
        if (call.outcome === "bereikt")
          await markFirstResponse(tx, "lease_requests", leaseRequestId, row!.calledAt, "call", calendar);
        await queueAudit(tx, auditEvent(by.username, "lead.call_logged", leaseRequestId, call.outcome));
        return toLeadCall(row!);
      });
    },

    async list(leaseRequestId: string, limit: number): Promise<LeadCall[]> {
      const rows = await db
        .select()
        .from(leadCalls)
        .where(eq(leadCalls.leaseRequestId, leaseRequestId))
        .orderBy(desc(leadCalls.calledAt))
        .limit(limit);
      return rows.map(toLeadCall);
    },
  };
}
export type CallsRepository = ReturnType<typeof callsRepository>;
