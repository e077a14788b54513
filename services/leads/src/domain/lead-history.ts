import {
  centsToEuros,
  LEAD_HISTORY_LIMIT,
  type LeadHistory,
  type LeadHistoryEntry,
  type LeadNote,
  type LeaseStatus,
  type LostReason,
} from "@lease/contracts";
import { forbidden, notFound, type AdminIdentity } from "@lease/platform";
import type { LeadHistoryRepository, LeadNoteRow } from "../repositories/lead-history";
import type { LeaseRequestsRepository } from "../repositories/lease-requests";
import type { LeadEmailsRepository } from "../repositories/lead-emails";
import type { CallsRepository } from "../repositories/calls";

const LEAD_NOT_FOUND = "Lease aanvraag niet gevonden";
const NOTE_NOT_FOUND = "Notitie niet gevonden";

function toNote(row: LeadNoteRow): LeadNote {
  return {
    id: row.id,
    leaseRequestId: row.leaseRequestId,
    author: row.author,
    authorId: row.authorId,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt ? row.updatedAt.toISOString() : null,
  };
}

/** Newest first; at the same moment the receipt comes last (it is what everything follows). */
export function newestFirst(items: LeadHistoryEntry[]): LeadHistoryEntry[] {
  const rank = (entry: LeadHistoryEntry) => (entry.kind === "received" ? 1 : 0);
  return [...items].sort((a, b) => (a.at === b.at ? rank(a) - rank(b) : a.at < b.at ? 1 : -1));
}

/** A lease request's timeline (receipt, status changes, notes) and the notes staff keep on it. */
export function leadHistoryDomain(
  repo: LeadHistoryRepository,
  leads: LeaseRequestsRepository,
  /** Called once a change queued an audit entry in the outbox (wakes the relay). */
  onStored: () => void = () => undefined,
  /** The lead's conversation (replies, e-mails sent and their delivery state). */
  emails?: Pick<LeadEmailsRepository, "list">,
  /** The calls logged for it. */
  calls?: Pick<CallsRepository, "list">,
) {
  /** The note as its author may change it: 404 when missing, 403 when another admin wrote it. */
  async function ownNote(leaseRequestId: string, noteId: string, author: AdminIdentity, verb: string) {
    const note = await repo.findNote(leaseRequestId, noteId);
    if (!note) throw notFound(NOTE_NOT_FOUND);
    // By id: an account that got a removed author's name (possible only before names were retired)
    // is another admin. A note from before ids (no authorId) stays as it is.
    if (note.authorId === null)
      throw forbidden(
        `Deze notitie van ${note.author} is van voor de huidige accounts en kan niet meer worden gewijzigd`,
      );
    if (note.authorId !== author.id) throw forbidden(`Alleen ${note.author} kan deze notitie ${verb}`);
    return note;
  }

  return {
    async history(leaseRequestId: string): Promise<LeadHistory> {
      const lead = await leads.findById(leaseRequestId);
      if (!lead) throw notFound(LEAD_NOT_FOUND);
      const [changes, notes, conversation, owners, called] = await Promise.all([
        repo.statusChanges(leaseRequestId, LEAD_HISTORY_LIMIT),
        repo.notes(leaseRequestId, LEAD_HISTORY_LIMIT),
        emails?.list(leaseRequestId, LEAD_HISTORY_LIMIT) ?? [],
        repo.ownerChanges(leaseRequestId, LEAD_HISTORY_LIMIT),
        calls?.list(leaseRequestId, LEAD_HISTORY_LIMIT) ?? [],
      ]);
      return {
        items: newestFirst([
          { kind: "received", at: lead.createdAt.toISOString() },
          ...changes.map((c): LeadHistoryEntry => ({
            kind: "status",
            at: c.changedAt.toISOString(),
            from: (c.fromStatus as LeaseStatus | null) ?? null,
            to: c.toStatus as LeaseStatus,
            by: c.changedBy,
            monthlyAmount: centsToEuros(c.monthlyAmountCents),
            commission: centsToEuros(c.commissionCents),
            contractTerm: c.contractTerm,
            lostReason: c.lostReason as LostReason | null,
            note: c.note,
          })),
          ...notes.map((n): LeadHistoryEntry => ({
            kind: "note",
            at: n.createdAt.toISOString(),
            note: toNote(n),
          })),
          ...conversation.map((email): LeadHistoryEntry => ({ kind: "email", at: email.at, email })),
          ...owners.map((o): LeadHistoryEntry => ({
            kind: "owner",
            at: o.at.toISOString(),
            owner: o.ownerId && o.ownerName ? { id: o.ownerId, username: o.ownerName } : null,
            reason: o.reason as "rule" | "manual" | "handover",
            by: o.by,
          })),
          ...called.map((call): LeadHistoryEntry => ({ kind: "call", at: call.at, call })),
        ]),
      };
    },

    async addNote(leaseRequestId: string, author: AdminIdentity, body: string): Promise<LeadNote> {
      const row = await repo.addNote(leaseRequestId, author, body);
      if (!row) throw notFound(LEAD_NOT_FOUND);
      onStored();
      return toNote(row);
    },

    async updateNote(
      leaseRequestId: string,
      noteId: string,
      author: AdminIdentity,
      body: string,
    ): Promise<LeadNote> {
      await ownNote(leaseRequestId, noteId, author, "wijzigen");
      const row = await repo.updateNote(leaseRequestId, noteId, author, body);
      // Deleted between the check and the change.
      if (!row) throw notFound(NOTE_NOT_FOUND);
      onStored();
      return toNote(row);
    },

    async deleteNote(leaseRequestId: string, noteId: string, author: AdminIdentity): Promise<void> {
      await ownNote(leaseRequestId, noteId, author, "verwijderen");
      if (!(await repo.deleteNote(leaseRequestId, noteId, author))) throw notFound(NOTE_NOT_FOUND);
      onStored();
    },
  };
}
export type LeadHistoryDomain = ReturnType<typeof leadHistoryDomain>;
