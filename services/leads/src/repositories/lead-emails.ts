import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { InternalLeadEmail, LeadEmail } from "@lease/contracts";
import type { Database } from "@lease/platform";
import { OPEN_STATUSES } from "./owners";
import { leadEmails, leaseRequests } from "../db/schema";
import { emailKey } from "../domain/lease-requests";
import type { Calendar } from "../domain/working-hours";
import { markFirstResponse } from "./responses";

/** A lead's conversation as the mailer tells it, and what follows from it for the lead. */
export function leadEmailsRepository(db: Database) {
  return {
    /**
     * Keeps the e-mail's newest state told (a lower revision than the one held changes nothing);
     * a bounce or drop marks the lead's address as not working. False when the lead is gone.
     */
    async store(leaseRequestId: string, email: InternalLeadEmail, calendar?: Calendar): Promise<boolean> {
      const { revision, ...kept } = email;
      return db.transaction(async (tx) => {
        const [lead] = await tx
          .select({ id: leaseRequests.id })
          .from(leaseRequests)
          .where(eq(leaseRequests.id, leaseRequestId))
          .for("update");
        if (!lead) return false;
        await tx
          .insert(leadEmails)
          .values({ emailId: email.id, leaseRequestId, at: new Date(email.at), revision, email: kept })
          .onConflictDoUpdate({
            target: leadEmails.emailId,
            set: { at: new Date(email.at), revision, email: kept },
            setWhere: sql`${leadEmails.revision} <= excluded.revision`,
          });
        // An e-mail sent to the customer from the panel is a first response, when it was sent.
        if (calendar && email.direction === "out" && email.status === "sent")
          await markFirstResponse(
            tx,
            "lease_requests",
            leaseRequestId,
            new Date(email.at),
            "email",
            calendar,
          );
        const state = email.delivery.state;
        if (state === "bounced" || state === "dropped")
          await tx
            .update(leaseRequests)
            .set({
              emailUndeliverableAt: new Date(email.delivery.at ?? email.at),
              emailUndeliverableReason: email.delivery.reason,
            })
            .where(eq(leaseRequests.id, leaseRequestId));
        return true;
      });
    },

    async list(leaseRequestId: string, limit: number): Promise<LeadEmail[]> {
      const rows = await db
        .select({ email: leadEmails.email })
        .from(leadEmails)
        .where(eq(leadEmails.leaseRequestId, leaseRequestId))
        .orderBy(desc(leadEmails.at))
        .limit(limit);
      return rows.map((r) => r.email);
    },

    /** The open leads with this address (at most two: only exactly one is a match). */
    async openByEmail(email: string): Promise<string[]> {
      const rows = await db
        .select({ id: leaseRequests.id })
        .from(leaseRequests)
        .where(and(eq(leaseRequests.emailKey, emailKey(email)), inArray(leaseRequests.status, OPEN_STATUSES)))
        .orderBy(desc(leaseRequests.createdAt))
        .limit(2);
      return rows.map((r) => r.id);
    },
  };
}
export type LeadEmailsRepository = ReturnType<typeof leadEmailsRepository>;
