import { createHash, createPublicKey } from "node:crypto";
import eventWebhookPkg from "@sendgrid/eventwebhook";
import {
  EVENT_WEBHOOK_MAX_AGE_SECONDS,
  SendgridEvent,
  SendgridEventBatch,
  VERIFICATION_KEY_MESSAGE,
  type DeliveryState,
  type EmailSettings,
  type ErrorCode,
  type EventBatchResponse,
} from "@lease/contracts";
import { HttpError, parseJsonText, type Logger } from "@lease/platform";
import type { DeliveryEventsRepository, KnownEvent } from "../repositories/delivery-events";
import { toEmailSettings } from "./inbound";
import type { InboundRepository } from "../repositories/inbound";

// SendGrid's Event Webhook (services/mailer/README.md, "Delivery: SendGrid's Event Webhook"): a
// JSON array of events, signed with ECDSA (P-256, SHA-256) over the timestamp header followed by the
// body's exact bytes. Verified with @sendgrid/eventwebhook against the key set in E-mail
// Instellingen; anything unsigned, wrongly signed, stale or seen before is refused and changes nothing.

const { EventWebhook } = eventWebhookPkg as unknown as {
  EventWebhook: new () => {
    convertPublicKeyToECDSA(key: string): unknown;
    verifySignature(key: unknown, payload: string | Buffer, signature: string, timestamp: string): boolean;
  };
};
const webhook = new EventWebhook();

/** SendGrid's event names and the delivery state each one means (others are kept as events only). */
const STATE_OF: Record<string, DeliveryState> = {
  processed: "processed",
  deferred: "deferred",
  delivered: "delivered",
  bounce: "bounced",
  dropped: "dropped",
};

const refused = (status: 401 | 403, code: ErrorCode, message: string) => new HttpError(status, code, message);

/** The key as SendGrid shows it (base64 DER), or PEM: valid only when it is a P-256 public key. */
export function checkVerificationKey(key: string): string {
  const base64 = key
    .replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "")
    .replace(/\s+/g, "")
    .trim();
  try {
    const parsed = createPublicKey({ key: Buffer.from(base64, "base64"), format: "der", type: "spki" });
    if (parsed.asymmetricKeyType !== "ec" || parsed.asymmetricKeyDetails?.namedCurve !== "prime256v1")
      throw new Error("not P-256");
    webhook.convertPublicKeyToECDSA(base64);
  } catch {
    throw new HttpError(400, "validation_failed", VERIFICATION_KEY_MESSAGE, [
      { path: "verificationKey", message: VERIFICATION_KEY_MESSAGE },
    ]);
  }
  return base64;
}

export function eventWebhookDomain(deps: {
  settings: InboundRepository;
  events: DeliveryEventsRepository;
  /** Wakes the outbox relay after leads were told of a lead's e-mail. */
  nudge: () => void;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  return {
    async setKey(key: string, actor: string): Promise<EmailSettings> {
      const row = await deps.settings.setEventKey(checkVerificationKey(key), actor);
      deps.nudge();
      return toEmailSettings(row);
    },

    /** One batch: verified (signature, freshness, not seen before), then its events stored in one transaction. */
    async receive(
      body: Buffer,
      signature: string | undefined,
      timestamp: string | undefined,
      log: Logger,
    ): Promise<EventBatchResponse> {
      if (!signature || !timestamp)
        throw refused(401, "unsigned", "Ongetekend verzoek: de handtekening van SendGrid ontbreekt");
      const settings = await deps.settings.settings();
      if (!settings.eventKey)
        throw refused(
          403,
          "bad_signature",
          "Er is nog geen verificatiesleutel ingesteld bij E-mail Instellingen",
        );
      const signedAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
      if (!Number.isFinite(signedAt) || Math.abs(now() / 1000 - signedAt) > EVENT_WEBHOOK_MAX_AGE_SECONDS)
        throw refused(
          403,
          "stale",
          "Verouderd verzoek: de tijd van de handtekening ligt meer dan vijf minuten af",
        );
      let valid = false;
      try {
        valid = webhook.verifySignature(
          webhook.convertPublicKeyToECDSA(settings.eventKey),
          body,
          signature,
          timestamp,
        );
      } catch {
        valid = false;
      }
      if (!valid) throw refused(403, "bad_signature", "De handtekening klopt niet");
      const events = parseEvents(body);
      const signatureHash = createHash("sha256").update(signature).digest("hex");
      const stored = await deps.events.store(signatureHash, events);
      if (stored === "replayed")
        throw refused(403, "replayed", "Deze gebeurtenissen zijn al eerder ontvangen");
      if (stored.leadEmails > 0) deps.nudge();
      log.info({ received: events.length, matched: stored.matched }, "sendgrid events stored");
      return { received: events.length, matched: stored.matched };
    },
  };
}
export type EventWebhookDomain = ReturnType<typeof eventWebhookDomain>;

/** The batch's events we can use; an event of an unknown shape is left out, a body that is no array is a 400. */
function parseEvents(body: Buffer): KnownEvent[] {
  const batch = SendgridEventBatch.safeParse(parseJsonText(body.toString("utf8")));
  if (!batch.success)
    throw new HttpError(400, "invalid_events", "De gebeurtenissen zijn geen JSON-lijst van SendGrid-events");
  return batch.data.flatMap((item) => {
    const event = SendgridEvent.safeParse(item);
    if (!event.success) return [];
    const e = event.data;
    return [
      {
        sgEventId: e.sg_event_id,
        event: e.event,
        state: STATE_OF[e.event] ?? null,
        at: new Date(e.timestamp * 1000),
        reason: (e.reason ?? e.response ?? null)?.replace(/[\p{Cc}]+/gu, " ").trim() || null,
        outgoingEmailId: e.outgoing_email_id ?? null,
        // "<X-Message-Id>.filter…": the send's answer named the part before the first dot.
        providerMessageId: e.sg_message_id?.split(".")[0] ?? null,
      },
    ];
  });
}
