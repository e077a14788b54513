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

/** The headers a lead's e-mail is sent with, and where its replies go. */
export interface LeadMailHeaders {
  replyTo: string | null;
  messageId: string;
  references: string;
}

/**
 * A lead's e-mail: `Reply-To: local+token@domain` when a reply address is set, our own Message-ID
 * naming the send, and References naming the lead, so a reply finds it by either.
 */
export function leadMailHeaders(
  outgoingId: string,
  token: string,
  replyAddress: string | null,
  fromAddress: string,
): LeadMailHeaders {
  const [local, domain] = (replyAddress ?? fromAddress).split("@") as [string, string];
  return {
    replyTo: replyAddress ? `${local}+${token}@${domain}` : null,
    messageId: `<out.${outgoingId}@${domain}>`,
    references: `<lead.${token}@${domain}>`,
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
