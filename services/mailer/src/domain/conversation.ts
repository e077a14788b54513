import { withTimeout, type Logger } from "@lease/platform";
import type { ConversationRepository } from "../repositories/conversation";
import type { InboundMatch } from "../repositories/inbound";
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

export function replyMatcher(deps: {
  conversation: ConversationRepository;
  leads: LeadsSource;
  log: Logger;
}) {
  return async function match(m: ParsedInbound): Promise<InboundMatch | null> {
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
      const open = await withTimeout(deps.leads.openLeadsByEmail(m.fromAddress), 3000);
      return open.length === 1 ? { leaseRequestId: open[0]!, matchedBy: "sender" } : null;
    } catch (err) {
      // The message is stored either way: without leads it is an Algemene E-mail without a lead.
      deps.log.warn({ err: (err as Error).message }, "reply not matched by its sender: leads did not answer");
      return null;
    }
  };
}
