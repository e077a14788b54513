import type { IncomingMessage } from "node:http";
import {
  INBOUND_SECRET,
  SPAM_SCORE_THRESHOLD,
  inboundParsePath,
  type EmailSettings,
  type InboundParseResponse,
  type InboundUrl,
} from "@lease/contracts";
import { HttpError, newUrlSecret, urlSecretMatches, type Logger } from "@lease/platform";
import type { InboundRepository, WebhookSettingsRow } from "../repositories/inbound";
import type { MatchResult } from "./conversation";
import { parseInbound, readInboundForm, type ParsedInbound } from "./inbound-parse";

const BUSY_MESSAGE = "Er worden al veel berichten tegelijk verwerkt. Probeer het zo opnieuw.";

export function toEmailSettings(row: WebhookSettingsRow): EmailSettings {
  return {
    inboundUrlSet: row.inboundSecretHash !== null,
    inboundUrlRotatedAt: row.inboundRotatedAt?.toISOString() ?? null,
    inboundLastReceivedAt: row.inboundLastReceivedAt?.toISOString() ?? null,
    replyAddress: row.replyAddress,
    eventWebhookKeySet: row.eventKey !== null,
    eventWebhookKeySetAt: row.eventKeySetAt?.toISOString() ?? null,
    eventWebhookLastReceivedAt: row.eventsLastReceivedAt?.toISOString() ?? null,
  };
}

export interface InboundOptions {
  repo: InboundRepository;
  /** The body of one post at most (SendGrid's 30 MB and the form around it). */
  maxBytes: number;
  /** Kept attachments' bytes in all; beyond it a message is stored without the bytes of those that do not fit. */
  attachmentsMaxBytes: number;
  /** Posts read at once; more wait for SendGrid's retry (503), so memory stays bounded. */
  maxConcurrent: number;
  /** Finds the lead a message belongs to; null when none is known. */
  match?: (message: ParsedInbound) => Promise<MatchResult>;
  /** Told of each newly stored message (the admin's live notice); must not throw. */
  stored?: (stored: { id: string; leaseRequestId: string | null; spam: boolean }) => Promise<void>;
  /** Wakes the outbox relay after a change queued its audit entry. */
  nudge: () => void;
}

/** SendGrid's Inbound Parse: the secret URL, the reply address, and each message it posts. */
export function inboundDomain(opts: InboundOptions) {
  let reading = 0;
  return {
    async settings(): Promise<EmailSettings> {
      return toEmailSettings(await opts.repo.settings());
    },

    /** A new secret URL, answered this once; the one before answers 404 from this moment. */
    async rotateUrl(actor: string, origin: string): Promise<InboundUrl> {
      const { secret, hash } = newUrlSecret();
      const row = await opts.repo.rotateSecret(hash, actor);
      opts.nudge();
      const path = inboundParsePath(secret);
      return { url: `${origin}${path}`, path, rotatedAt: row.inboundRotatedAt!.toISOString() };
    },

    async setReplyAddress(replyAddress: string | null, actor: string): Promise<EmailSettings> {
      const row = await opts.repo.setReplyAddress(replyAddress?.toLowerCase() ?? null, actor);
      opts.nudge();
      return toEmailSettings(row);
    },

    /**
     * One post of Inbound Parse: the secret first (404 before a byte of the body is read; Node
     * discards the rest), then
     * the body within its bounds, then the message stored with its attachments. Only then 2xx; a
     * failure to store is a 5xx, which SendGrid retries for three days.
     */
    async receive(secret: string, req: IncomingMessage, log: Logger): Promise<InboundParseResponse> {
      const settings = await opts.repo.settings();
      if (!urlSecretMatches(secret, settings.inboundSecretHash, INBOUND_SECRET))
        throw new HttpError(404, "not_found", "Dit adres bestaat niet.");
      if (reading >= opts.maxConcurrent)
        throw new HttpError(503, "busy", BUSY_MESSAGE, undefined, { "Retry-After": "30" });
      reading++;
      let message: ParsedInbound;
      try {
        message = await parseInbound(await readInboundForm(req, opts.maxBytes));
      } finally {
        reading--;
      }
      const found = (await opts.match?.(message)) ?? null;
      const match = found === "sender_pending" ? null : found;
      const stored = await opts.repo.store(
        message,
        match,
        opts.attachmentsMaxBytes,
        found === "sender_pending",
      );
      if (stored.dropped > 0)
        log.warn(
          { inboundId: stored.inboundId, dropped: stored.dropped },
          "attachments not kept: the attachments' store is full (MAIL_ATTACHMENTS_MAX_BYTES)",
        );
      if (match) opts.nudge();
      if (!stored.duplicate)
        await opts.stored?.({
          id: stored.id,
          leaseRequestId: match?.leaseRequestId ?? null,
          spam: (message.spamScore ?? 0) >= SPAM_SCORE_THRESHOLD,
        });
      log.info(
        { inboundId: stored.inboundId, duplicate: stored.duplicate, matchedBy: match?.matchedBy ?? null },
        "inbound e-mail stored",
      );
      return { id: stored.id, status: stored.duplicate ? "duplicate" : "stored" };
    },
  };
}
export type InboundDomain = ReturnType<typeof inboundDomain>;
