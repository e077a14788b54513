import { z } from "zod";
import { IsoDateTime } from "../entities/common";
import { EMAIL_MESSAGE, emailAddress } from "./fields";

// What crosses SendGrid towards us (services/mailer/README.md, "Replies and delivery"): customers'
// replies posted by Inbound Parse to a secret URL, and SendGrid's signed Event Webhook batches.

/** The Inbound Parse URL's path before the secret; the path is `${prefix}${secret}`. */
export const INBOUND_PARSE_PREFIX = "/api/inbound/sendgrid/";
export const inboundParsePath = (secret: string) => `${INBOUND_PARSE_PREFIX}${secret}`;
/** 32 random bytes, base64url: what an inbound secret looks like (anything else is no secret). */
export const INBOUND_SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * SendGrid's Inbound Parse takes messages up to 30 MB, attachments included; the form that carries
 * one (its fields, the boundaries, the raw variant's MIME encoding) is allowed a little more.
 */
export const INBOUND_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/** SendGrid's Event Webhook posts a batch when it reaches about 768 KB or every 30 s. */
export const EVENT_WEBHOOK_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export const InboundSecretParam = z.object({
  secret: z.string().describe("The URL's secret; a wrong one answers 404"),
});

export const InboundParseResponse = z
  .object({
    id: z.uuid().describe("The inbox entry of the message"),
    status: z.enum(["stored", "duplicate"]).describe("duplicate: the same Message-ID was stored before"),
  })
  .describe("The message is stored (SendGrid stops retrying on a 2xx)");
export type InboundParseResponse = z.infer<typeof InboundParseResponse>;

export const EmailSettings = z
  .object({
    inboundUrlSet: z.boolean().describe("An Inbound Parse URL exists (it is shown once, when made)"),
    inboundUrlRotatedAt: IsoDateTime.nullable().describe("When the current Inbound Parse URL was made"),
    inboundLastReceivedAt: IsoDateTime.nullable().describe(
      "When the Inbound Parse URL last stored a message",
    ),
    replyAddress: z
      .string()
      .nullable()
      .describe("The address replies go to (`local+token@domain` on the panel's e-mails); null: none"),
    eventWebhookKeySet: z.boolean().describe("The Event Webhook's verification key is set"),
    eventWebhookKeySetAt: IsoDateTime.nullable(),
    eventWebhookLastReceivedAt: IsoDateTime.nullable().describe("When a verified event batch last arrived"),
  })
  .describe("The SendGrid webhooks' state (never a secret)");
export type EmailSettings = z.infer<typeof EmailSettings>;

export const RotateInboundUrlBody = z.strictObject({}).describe("Nothing: a new secret is made");

export const InboundUrl = z
  .object({
    url: z.string().describe("The whole URL for SendGrid's Inbound Parse settings, shown this once"),
    path: z.string().describe("The same URL's path on the site"),
    rotatedAt: IsoDateTime,
  })
  .describe("The new Inbound Parse URL; the previous one stops working at once");
export type InboundUrl = z.infer<typeof InboundUrl>;

export const REPLY_ADDRESS_PLUS_MESSAGE =
  "Gebruik een antwoordadres zonder +: het deel na de + voegen wij zelf toe om het antwoord bij de aanvraag te zetten";

export const UpdateInboundBody = z
  .strictObject({
    replyAddress: z
      .preprocess(
        (v) => (typeof v === "string" && v.trim() === "" ? null : v),
        emailAddress(EMAIL_MESSAGE)
          .refine((address) => !address.split("@")[0]!.includes("+"), { error: REPLY_ADDRESS_PLUS_MESSAGE })
          .nullable(),
      )
      .describe(
        "An address on the domain whose MX record points to SendGrid, e.g. antwoord@reply.example.nl; null or empty: replies go to the sender address",
      ),
  })
  .describe("Where customers' replies to the panel's e-mails go");
export type UpdateInboundBody = z.infer<typeof UpdateInboundBody>;

/** SendGrid's Event Webhook headers: the ECDSA signature over timestamp + body, and that timestamp. */
export const EVENT_WEBHOOK_SIGNATURE_HEADER = "x-twilio-email-event-webhook-signature";
export const EVENT_WEBHOOK_TIMESTAMP_HEADER = "x-twilio-email-event-webhook-timestamp";
/** A batch signed longer ago (or further ahead) than this is stale: refused, so an old one cannot be replayed later. */
export const EVENT_WEBHOOK_MAX_AGE_SECONDS = 300;
/** A batch holds at most this many events (SendGrid sends up to 768 KB, a few thousand). */
export const EVENT_WEBHOOK_MAX_EVENTS = 10_000;

export const VERIFICATION_KEY_MESSAGE =
  "Dit is geen geldige verificatiesleutel: kopieer de Verification Key van de Event Webhook in SendGrid (een ECDSA-sleutel, base64)";

export const UpdateEventWebhookBody = z
  .strictObject({
    verificationKey: z
      .string({ error: VERIFICATION_KEY_MESSAGE })
      .trim()
      .min(40, { error: VERIFICATION_KEY_MESSAGE })
      .max(1000, { error: VERIFICATION_KEY_MESSAGE })
      .regex(/^[A-Za-z0-9+/=\s-]+$|^-----BEGIN PUBLIC KEY-----[A-Za-z0-9+/=\s]+-----END PUBLIC KEY-----$/, {
        error: VERIFICATION_KEY_MESSAGE,
      })
      .describe("The Event Webhook's Verification Key as SendGrid shows it (base64 of a P-256 public key)"),
  })
  .describe("The key SendGrid signs its Event Webhook batches with");
export type UpdateEventWebhookBody = z.infer<typeof UpdateEventWebhookBody>;

/** One event of a batch as SendGrid posts it; fields we do not use are kept out. */
export const SendgridEvent = z
  .object({
    event: z.string().max(40),
    sg_event_id: z.string().min(1).max(200),
    sg_message_id: z.string().max(300).optional(),
    // Seconds; at most the year 9999, so every kept event has a date PostgreSQL can store.
    timestamp: z.number().int().nonnegative().max(253_402_300_799),
    reason: z.string().max(2000).optional(),
    response: z.string().max(2000).optional(),
    type: z.string().max(40).optional(),
    /** Our custom_args come back as top-level fields. */
    outgoing_email_id: z.string().max(100).optional(),
  })
  .describe("One SendGrid event (processed, delivered, deferred, bounce, dropped, open, click, ...)");
export type SendgridEvent = z.infer<typeof SendgridEvent>;

export const SendgridEventBatch = z
  .array(z.unknown())
  .max(EVENT_WEBHOOK_MAX_EVENTS, { error: `Hoogstens ${EVENT_WEBHOOK_MAX_EVENTS} gebeurtenissen per keer` });

export const EventBatchResponse = z
  .object({ received: z.number().int(), matched: z.number().int() })
  .describe("Verified and stored: the events received and those about the panel's e-mails");
export type EventBatchResponse = z.infer<typeof EventBatchResponse>;
