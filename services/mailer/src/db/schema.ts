import { sql } from "drizzle-orm";
import { boolean, index, integer, pgSchema, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
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
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("outgoing_emails_status_idx").on(t.status, t.updatedAt),
    // The e-mails sent for one lease request (its timeline).
    index("outgoing_emails_lease_request_idx").on(t.leaseRequestId),
  ],
);
