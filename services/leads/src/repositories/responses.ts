import { eq, sql } from "drizzle-orm";
import type { FirstResponseKind } from "@lease/contracts";
import type { Database } from "@lease/platform";
import { contactMessages } from "../db/schema";
import type { Calendar } from "../domain/working-hours";
import type { Tx } from "./lease-requests";

/**
 * Records a lead's first response (the earliest one wins: an e-mail's send told after a call can
 * still be first), with the working minutes from its arrival in the calendar in force. Within the
 * caller's transaction; the lead's row is locked. Answers whether it became the first response.
 */
export async function markFirstResponse(
  tx: Tx,
  table: "lease_requests" | "contact_messages",
  id: string,
  at: Date,
  kind: FirstResponseKind,
  calendar: Calendar,
): Promise<boolean> {
  const { rows } = await tx.execute<{ created_at: Date | string; first_response_at: Date | string | null }>(
    sql`SELECT created_at, first_response_at FROM ${sql.identifier("leads")}.${sql.identifier(table)}
         WHERE id = ${id} FOR UPDATE`,
  );
  const lead = rows[0];
  if (!lead) return false;
  if (lead.first_response_at !== null && new Date(lead.first_response_at) <= at) return false;
  const created = new Date(lead.created_at);
  const when = at < created ? created : at;
  const minutes = Math.round(calendar.workingMinutesBetween(created, when));
  await tx.execute(
    sql`UPDATE ${sql.identifier("leads")}.${sql.identifier(table)}
           SET first_response_at = ${when.toISOString()}::timestamptz, first_response_kind = ${kind},
               response_working_minutes = ${minutes}
         WHERE id = ${id}`,
  );
  return true;
}

/**
 * A contact message's sender was answered by e-mail at `at` (the mailer tells it once sent): its
 * first response if none came before. False when the message does not exist (deleted, erased).
 */
export async function answerContactMessage(
  db: Database,
  id: string,
  at: Date,
  calendar: Calendar,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: contactMessages.id })
      .from(contactMessages)
      .where(eq(contactMessages.id, id))
      .for("update");
    if (!found) return false;
    await markFirstResponse(tx, "contact_messages", id, at, "email", calendar);
    return true;
  });
}
