import { scheduleEvery, withTimeout, type Logger } from "@lease/platform";
import type { ConversationRepository } from "../repositories/conversation";
import type { InboundMatch, InboundRepository } from "../repositories/inbound";
import type { LeadsSource } from "../repositories/leads-source";
import type { ParsedInbound } from "./inbound-parse";

// How a reply finds its lead (services/mailer/README.md, "Which lead a reply belongs to"): the
// token in the address it was sent to (`antwoord+<token>@…`, the Reply-To of the panel's e-mails),
// else its In-Reply-To and References (our Message-ID `<out.<id>@…>`, the lead's `<lead.<token>@…>`),
// else its sender being the address of exactly one open lead.

const PLUS_TOKEN = /^[^@+\s]+\+([a-z2-7]{16})@/;
const LEAD_REFERENCE = /^lead\.([a-z2-7]{16})@/;

/** The headers a lead's e-mail (or an answer to a received one) is sent with, and where its replies go. */
export interface LeadMailHeaders {
  replyTo: string | null;
  messageId: string;
  references: string | null;
  inReplyTo: string | null;
}

/** The received e-mail an answer is to: its Message-ID and References, bare (no angle brackets). */
export interface ThreadParent {
  messageId: string;
  references: string[];
}

/**
 * An id that can go in a header as `<id>`: `left@right` without spaces, angle brackets or control
 * characters (the hash kept for a message that had no Message-ID is not one).
 */
const HEADER_ID = /^[^\s<>@\p{Cc}]{1,250}@[^\s<>@\p{Cc}]{1,250}$/u;
/** References stays one header line (RFC 5322's 998 characters) however long the conversation. */
const REFERENCES_MAX_CHARS = 900;

/**
 * References for an answer (RFC 5322 §3.6.4: the parent's References, then its Message-ID), with the
 * lead's own reference first when the customer's client dropped it. A long chain keeps its first id
 * and as many of the newest as fit.
 */
function referencesFor(own: string | null, parent: ThreadParent | undefined): string | null {
  const ids = [
    ...new Set([
      ...(own ? [own] : []),
      ...(parent
        ? [...parent.references, parent.messageId].filter((id) => HEADER_ID.test(id)).map((id) => `<${id}>`)
        : []),
    ]),
  ];
  if (ids.length === 0) return null;
  const kept = [ids[0]!];
  let length = ids[0]!.length;
  const newest: string[] = [];
  for (const id of ids.slice(1).reverse()) {
    if (length + 1 + id.length > REFERENCES_MAX_CHARS) break;
    length += 1 + id.length;
    newest.unshift(id);
  }
  return [...kept, ...newest].join(" ");
}

/**
 * A lead's e-mail: `Reply-To: local+token@domain` when a reply address is set, our own Message-ID
 * naming the send, and References naming the lead, so a reply finds it by either. An answer to a
 * received e-mail also carries its In-Reply-To and References, so the customer's mail client shows
 * it in the same conversation.
 */
export function leadMailHeaders(
  outgoingId: string,
  token: string | null,
  replyAddress: string | null,
  fromAddress: string,
  parent?: ThreadParent,
): LeadMailHeaders {
  const [local, domain] = (replyAddress ?? fromAddress).split("@") as [string, string];
  return {
    replyTo: replyAddress && token ? `${local}+${token}@${domain}` : null,
    messageId: `<out.${outgoingId}@${domain}>`,
    references: referencesFor(token ? `<lead.${token}@${domain}>` : null, parent),
    inReplyTo: parent && HEADER_ID.test(parent.messageId) ? `<${parent.messageId}>` : null,
  };
}

/** What the matcher found: a lead, none, or none yet because leads did not answer (asked again later). */
export type MatchResult = InboundMatch | "sender_pending" | null;

/** Leads is asked which open leads have an address; at most this long, so a post is never held up. */
const LEADS_TIMEOUT_MS = 3000;

export function replyMatcher(deps: {
  conversation: ConversationRepository;
  leads: LeadsSource;
  log: Logger;
}) {
  return async function match(m: ParsedInbound): Promise<MatchResult> {
    const tokens = m.recipients.flatMap((r) => PLUS_TOKEN.exec(r)?.[1] ?? []);
    const byToken = await deps.conversation.leadOfTokens(tokens);
    if (byToken) return { leaseRequestId: byToken, matchedBy: "token" };
    const references = [...(m.inReplyTo ? [m.inReplyTo] : []), ...m.references];
    const byReference =
      (await deps.conversation.leadOfMessageIds(references)) ??
      (await deps.conversation.leadOfTokens(references.flatMap((r) => LEAD_REFERENCE.exec(r)?.[1] ?? [])));
    if (byReference) return { leaseRequestId: byReference, matchedBy: "references" };
    if (!deps.leads.openLeadsByEmail) return null;
    try {
      const open = await withTimeout(deps.leads.openLeadsByEmail(m.fromAddress), LEADS_TIMEOUT_MS);
      return open.length === 1 ? { leaseRequestId: open[0]!, matchedBy: "sender" } : null;
    } catch (err) {
      // Stored now as an Algemene E-mail; its sender is matched once leads answers again.
      deps.log.warn(
        { err: (err as Error).message },
        "reply not matched by its sender yet: leads did not answer; asked again later",
      );
      return "sender_pending";
    }
  };
}

/**
 * Replies that arrived while leads could not say whose address their sender is: asked again every
 * `intervalMs`, oldest first and in batches, until leads answers, so no reply stays without its
 * lead because of an outage. A round stops at the first unanswered question.
 */
export function startSenderMatchRetry(deps: {
  inbound: Pick<InboundRepository, "pendingSenderMatches" | "settleSenderMatch">;
  leads: LeadsSource;
  intervalMs: number;
  log: Logger;
  /** Wakes the outbox relay after leads was queued a reply. */
  nudge: () => void;
  batch?: number;
}) {
  const batch = deps.batch ?? 100;
  const ask = deps.leads.openLeadsByEmail;
  const round = async () => {
    if (!ask) return;
    let matched = 0;
    let settled = 0;
    try {
      for (;;) {
        const pending = await deps.inbound.pendingSenderMatches(batch);
        for (const p of pending) {
          const open = await withTimeout(ask(p.fromAddress), LEADS_TIMEOUT_MS);
          if (await deps.inbound.settleSenderMatch(p.id, open.length === 1 ? open[0]! : null)) matched++;
          settled++;
        }
        if (pending.length < batch) break;
      }
    } finally {
      if (matched > 0) deps.nudge();
      if (settled > 0)
        deps.log.info({ settled, matched }, "replies' senders matched after leads answered again");
    }
  };
  return scheduleEvery(deps.intervalMs, round, (err) =>
    deps.log.warn({ err: err.message }, "replies' senders not matched yet"),
  );
}
