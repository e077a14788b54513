import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  index,
  integer,
  pgSchema,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { outboxTable } from "@lease/platform/outbox-table";

export const mailer = pgSchema("mailer");

/** Audit entries of what admins did here, written in the change's transaction and relayed to the `audit` queue. */
export const outbox = outboxTable(mailer);

/**
 * The admin inbox. (source, source_id) is unique, so logging the same lead twice (a job delivered
 * twice) leaves one row. Outgoing e-mails appear here too, with source "outgoing".
 */
export const emailMessages = mailer.table(
  "email_messages",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    source: text("source").notNull(),
    sourceId: uuid("source_id").notNull(),
    subject: text("subject").notNull(),
    senderName: text("sender_name").notNull(),
    senderEmail: text("sender_email").notNull(),
    recipientEmail: text("recipient_email").notNull(),
    messageBody: text("message_body").notNull(),
    messageType: text("message_type").notNull(),
    isRead: boolean("is_read").notNull().default(false),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("email_messages_source_uq").on(t.source, t.sourceId),
    index("email_messages_created_at_idx").on(t.createdAt),
  ],
);

/**
 * Every e-mail the mailer sends. dedupe_key is unique (one notification per lead, one row per
 * compose request); status is claimed with a conditional UPDATE before the provider is called, so a
 * job that runs twice sends at most once.
 * status: queued → sending → sent | failed_retryable → ... | failed
 */
export const outgoingEmails = mailer.table(
  "outgoing_emails",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    dedupeKey: text("dedupe_key").notNull().unique(),
    kind: text("kind").notNull(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    leaseRequestId: uuid("lease_request_id"),
    /** The contact message it answers ("Beantwoorden" on its inbox entry): its first response once sent. */
    contactMessageId: uuid("contact_message_id"),
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    /**
     * A lead's e-mail: the Reply-To that names the lead (`local+token@domain`), our Message-ID, and
     * the References (the lead's `<lead.token@domain>`, and the reply it answers).
     */
    replyTo: text("reply_to"),
    messageIdHeader: text("message_id_header"),
    referencesHeader: text("references_header"),
    inReplyToHeader: text("in_reply_to_header"),
    /** What SendGrid's Event Webhook last said of it (DeliveryState), the server's reason, and first open. */
    deliveryState: text("delivery_state"),
    deliveryReason: text("delivery_reason"),
    deliveryAt: timestamp("delivery_at", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("outgoing_emails_status_idx").on(t.status, t.updatedAt),
    // The e-mails sent for one lease request (its timeline).
    index("outgoing_emails_lease_request_idx").on(t.leaseRequestId),
    // SendGrid's events name the message by the id its send answered.
    index("outgoing_emails_provider_message_idx").on(t.providerMessageId),
    // A reply's In-Reply-To / References name our Message-ID.
    index("outgoing_emails_message_id_header_idx").on(t.messageIdHeader),
  ],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/**
 * The SendGrid webhooks' settings (one row): the Inbound Parse URL's secret as its SHA-256 (the URL
 * is shown once), the reply address, and when each webhook last received something.
 */
export const webhookSettings = mailer.table(
  "webhook_settings",
  {
    id: integer("id").primaryKey(),
    inboundSecretHash: text("inbound_secret_hash"),
    inboundRotatedAt: timestamp("inbound_rotated_at", { withTimezone: true }),
    inboundLastReceivedAt: timestamp("inbound_last_received_at", { withTimezone: true }),
    replyAddress: text("reply_address"),
    eventKey: text("event_key"),
    eventKeySetAt: timestamp("event_key_set_at", { withTimezone: true }),
    eventsLastReceivedAt: timestamp("events_last_received_at", { withTimezone: true }),
  },
  (t) => [check("webhook_settings_one_row", sql`${t.id} = 1`)],
);

/**
 * A message received through Inbound Parse, unique by its Message-ID (a redelivery stores nothing
 * new). Its inbox entry is the email_messages row with source "inbound" and this id.
 */
export const inboundEmails = mailer.table(
  "inbound_emails",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    messageId: text("message_id").notNull().unique(),
    fromAddress: text("from_address").notNull(),
    toAddresses: text("to_addresses").notNull(),
    ccAddresses: text("cc_addresses").notNull().default(""),
    htmlBody: text("html_body"),
    inReplyTo: text("in_reply_to"),
    references: text("references")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    spamScore: real("spam_score"),
    spf: text("spf"),
    dkim: text("dkim"),
    /** The lead it belongs to, and how that was found (token, references, sender); null: none. */
    leaseRequestId: uuid("lease_request_id"),
    matchedBy: text("matched_by"),
    /**
     * Set while its sender is still to be matched to an open lead: leads did not answer when it
     * arrived. The sweeper asks again until leads answers (services/mailer/README.md).
     */
    senderMatchPendingSince: timestamp("sender_match_pending_since", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("inbound_emails_lease_request_idx").on(t.leaseRequestId),
    index("inbound_emails_sender_match_pending_idx")
      .on(t.senderMatchPendingSince)
      .where(sql`${t.senderMatchPendingSince} IS NOT NULL`),
    index("inbound_emails_from_idx").on(sql`lower(${t.fromAddress})`),
    index("inbound_emails_received_at_idx").on(t.receivedAt),
  ],
);

/**
 * A received message's attachments. `content` is null when it was not kept (the attachments'
 * total store was full): the message still lists it, with the reason.
 */
export const inboundAttachments = mailer.table(
  "inbound_attachments",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    inboundEmailId: uuid("inbound_email_id")
      .notNull()
      .references(() => inboundEmails.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content"),
  },
  (t) => [unique("inbound_attachments_position_uq").on(t.inboundEmailId, t.position)],
);

/**
 * The token a lead's e-mails carry in their Reply-To (`antwoord+<token>@reply.example.nl`) and
 * References: random, so a reply cannot be put on a lead by guessing; one per lead.
 */
export const replyTokens = mailer.table("reply_tokens", {
  token: text("token").primaryKey(),
  leaseRequestId: uuid("lease_request_id").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What SendGrid's Event Webhook told of the panel's e-mails, once per event (sg_event_id): a batch
 * redelivered after a lost answer changes nothing. Events of e-mails we do not know are not kept.
 */
export const deliveryEvents = mailer.table(
  "delivery_events",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    sgEventId: text("sg_event_id").notNull().unique(),
    outgoingEmailId: uuid("outgoing_email_id")
      .notNull()
      .references(() => outgoingEmails.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    reason: text("reason"),
    at: timestamp("at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("delivery_events_outgoing_idx").on(t.outgoingEmailId)],
);

/**
 * The signatures of the Event Webhook batches of the last day: a batch posted again with the same
 * signature is a replay, refused (SendGrid signs each delivery anew).
 */
export const eventBatches = mailer.table(
  "event_batches",
  {
    signatureHash: text("signature_hash").primaryKey(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_batches_received_at_idx").on(t.receivedAt)],
);

/** Staff's e-mail templates; the default one (the follow-up) is made by the migration. */
export const emailTemplates = mailer.table(
  "email_templates",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("email_templates_name_uq").on(sql`lower(${t.name})`),
    uniqueIndex("email_templates_one_default")
      .on(t.isDefault)
      .where(sql`${t.isDefault}`),
  ],
);
