import { z } from "zod";
import { EmailDetail, EmailMessage, EmailMessageList } from "../entities/email-message";
import {
  EmailTemplate,
  EmailTemplateBody,
  EmailTemplateIdParam,
  EmailTemplateList,
} from "../http/email-templates";
import {
  CancelEmailResponse,
  EmailAttachmentParams,
  EmailIdParam,
  EmailListQuery,
  EmailSettingsTestResponse,
  RetryEmailResponse,
  SendEmailBody,
  SendEmailResponse,
} from "../http/emails";
import {
  EmailSettings,
  EVENT_WEBHOOK_BODY_LIMIT_BYTES,
  EventBatchResponse,
  INBOUND_BODY_LIMIT_BYTES,
  InboundParseResponse,
  InboundSecretParam,
  InboundUrl,
  RotateInboundUrlBody,
  UpdateEventWebhookBody,
  UpdateInboundBody,
} from "../http/inbound-mail";
import { noContent } from "./common";
import type { ApiRoute } from "../routes";

// The mailer's routes: the inbox and sent mail, sending, templates, the e-mail settings and
// SendGrid's webhooks.

const emailIdParams = { params: EmailIdParam };

export const MAILER_ROUTES = [
  {
    method: "GET",
    path: "/api/admin/emails",
    service: "mailer",
    auth: "admin",
    summary: "Inbox or sent mail, newest first",
    request: { query: EmailListQuery },
    responses: {
      200: {
        description:
          "The newest `limit` e-mails of the folder (older than `before` if given); the X-Total-Count and X-Unread-Count headers count the whole folder, X-Next-Cursor (only when older e-mails exist) is the `before` of the next page",
        schema: EmailMessageList,
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/emails/{id}",
    service: "mailer",
    auth: "admin",
    summary: "One e-mail, with its delivery state (a received one with its HTML as sent)",
    request: emailIdParams,
    responses: { 200: { description: "The e-mail", schema: EmailDetail } },
  },
  {
    method: "GET",
    path: "/api/admin/emails/{id}/attachments/{attachmentId}",
    service: "mailer",
    auth: "admin",
    summary:
      "Download an attachment of a received e-mail: always Content-Disposition attachment, as a type a browser does not run",
    request: { params: EmailAttachmentParams },
    responses: {
      200: {
        description: "The attachment's bytes",
        contentType: "application/octet-stream",
        schema: z.string(),
      },
      404: { description: "No such e-mail or attachment" },
      410: {
        description:
          "Listed, but its bytes were not kept: the attachments' store was full (code attachment_not_kept)",
      },
    },
  },
  {
    method: "POST",
    path: "/api/admin/emails/{id}/retry",
    service: "mailer",
    auth: "admin",
    summary: "Send a failed e-mail again",
    request: emailIdParams,
    responses: {
      202: { description: "Queued again", schema: RetryEmailResponse },
      409: { description: "Not a failed outgoing e-mail (code not_retryable)" },
    },
  },
  {
    method: "POST",
    path: "/api/admin/emails/{id}/cancel",
    service: "mailer",
    auth: "admin",
    summary: "Stop an e-mail that is queued or waiting for a new attempt: it is not sent",
    request: emailIdParams,
    responses: {
      200: {
        description: "Not sent; it counts as failed and can be sent again",
        schema: CancelEmailResponse,
      },
      409: { description: "Being sent right now, or already sent or failed (code not_cancellable)" },
    },
  },
  {
    method: "PUT",
    path: "/api/admin/emails/{id}/read",
    service: "mailer",
    auth: "admin",
    summary: "Mark an e-mail read",
    request: emailIdParams,
    responses: { 200: { description: "Updated e-mail", schema: EmailMessage } },
  },
  {
    method: "DELETE",
    path: "/api/admin/emails/{id}",
    service: "mailer",
    auth: "admin",
    summary: "Delete an e-mail",
    request: emailIdParams,
    responses: noContent,
  },
  {
    method: "POST",
    path: "/api/admin/send-email",
    service: "mailer",
    auth: "admin",
    summary: "Store an outgoing e-mail and queue it for sending",
    request: { body: SendEmailBody },
    responses: {
      202: { description: "Queued", schema: SendEmailResponse },
      409: {
        description:
          "No API key or sender address set, or the stored key cannot be decrypted (code mail_not_configured or mail_key_unreadable)",
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/email-templates",
    service: "mailer",
    auth: "admin",
    summary: "Staff's e-mail templates, the default (the follow-up) first",
    responses: { 200: { description: "The templates", schema: EmailTemplateList } },
  },
  {
    method: "POST",
    path: "/api/admin/email-templates",
    service: "mailer",
    auth: "admin",
    summary: "Add a template (name, subject, body with {{placeholders}})",
    request: { body: EmailTemplateBody },
    responses: {
      201: { description: "Added", schema: EmailTemplate },
      409: { description: "A template of that name exists (code duplicate_name)" },
      422: { description: "There are EMAIL_TEMPLATES_MAX (200) templates already (code too_many_templates)" },
    },
  },
  {
    method: "PUT",
    path: "/api/admin/email-templates/{id}",
    service: "mailer",
    auth: "admin",
    summary: "Change a template",
    request: { params: EmailTemplateIdParam, body: EmailTemplateBody },
    responses: {
      200: { description: "Changed", schema: EmailTemplate },
      404: { description: "No such template" },
      409: { description: "Another template has that name (code duplicate_name)" },
    },
  },
  {
    method: "DELETE",
    path: "/api/admin/email-templates/{id}",
    service: "mailer",
    auth: "admin",
    summary: "Remove a template (the default follow-up cannot be removed, only changed)",
    request: { params: EmailTemplateIdParam },
    responses: {
      ...noContent,
      404: { description: "No such template" },
      409: { description: "The default template (code default_template)" },
    },
  },
  {
    method: "GET",
    path: "/api/admin/email-settings",
    service: "mailer",
    auth: "admin",
    summary:
      "Whether the SendGrid webhooks are set up (never a secret), the reply address, when each last received",
    responses: { 200: { description: "The webhooks' state", schema: EmailSettings } },
  },
  {
    method: "POST",
    path: "/api/admin/email-settings/inbound-url",
    service: "mailer",
    auth: "admin",
    summary:
      "Make a new secret Inbound Parse URL, answered this once; the previous one answers 404 from then on; audited",
    request: { body: RotateInboundUrlBody, bodyOptional: true },
    responses: { 200: { description: "The new URL", schema: InboundUrl } },
  },
  {
    method: "PUT",
    path: "/api/admin/email-settings/inbound",
    service: "mailer",
    auth: "admin",
    summary:
      "Set the reply address: the panel's e-mails are sent with Reply-To local+<token>@domain, the token naming the lead",
    request: { body: UpdateInboundBody },
    responses: { 200: { description: "The webhooks' state", schema: EmailSettings } },
  },
  {
    method: "PUT",
    path: "/api/admin/email-settings/event-webhook",
    service: "mailer",
    auth: "admin",
    summary:
      "Set the Event Webhook's verification key (SendGrid's ECDSA public key; audited, never shown back)",
    request: { body: UpdateEventWebhookBody },
    responses: {
      200: { description: "The webhooks' state", schema: EmailSettings },
      400: { description: "Not a P-256 public key (code validation_failed)" },
    },
  },
  {
    method: "POST",
    path: "/api/sendgrid/events",
    service: "mailer",
    auth: "public",
    summary:
      "SendGrid's Event Webhook: a signed JSON array of events (delivered, deferred, bounce, dropped, open, ...); 2xx once verified and stored",
    bodyLimitBytes: EVENT_WEBHOOK_BODY_LIMIT_BYTES,
    ownBody: "the signature covers the body's exact bytes; parsed once it is verified",
    responses: {
      200: {
        description: "Verified and stored (an event seen before changes nothing)",
        schema: EventBatchResponse,
      },
      400: { description: "Verified but no JSON array of events (code invalid_events)" },
      401: { description: "Unsigned: no signature or timestamp header (code unsigned)" },
      403: {
        description:
          "Wrong signature, no key set, a timestamp outside five minutes, or a batch seen before (code bad_signature, stale, replayed)",
      },
      413: { description: "Larger than SendGrid's batches" },
      429: { description: "Too many posts from this address" },
      503: { description: "Not stored just now; SendGrid retries" },
    },
    webhook: true,
  },
  {
    method: "POST",
    path: "/api/inbound/sendgrid/{secret}",
    service: "mailer",
    auth: "public",
    summary:
      "SendGrid Inbound Parse: one received message as multipart/form-data (parsed or raw); 2xx once stored, 5xx when it could not be (SendGrid retries)",
    request: { params: InboundSecretParam },
    bodyLimitBytes: INBOUND_BODY_LIMIT_BYTES,
    ownBody: "multipart/form-data, streamed",
    responses: {
      200: { description: "Stored, or stored before (same Message-ID)", schema: InboundParseResponse },
      400: { description: "No multipart/form-data, or no message in it (code invalid_message)" },
      415: { description: "Not posted as multipart/form-data (code unsupported_media_type)" },
      404: { description: "No such URL (a wrong or replaced secret)" },
      413: { description: "The message is larger than SendGrid's 30 MB" },
      429: { description: "Too many posts from this address; SendGrid retries later" },
      503: {
        description: "Not stored just now (the database is away, or too many at once); SendGrid retries",
      },
    },
    secretPath: true,
    webhook: true,
  },
  {
    method: "POST",
    path: "/api/admin/email-settings/test",
    service: "mailer",
    auth: "admin",
    summary: "Send a test e-mail to the configured sender address and wait for the provider's answer",
    responses: {
      200: { description: "The provider accepted it", schema: EmailSettingsTestResponse },
      409: {
        description:
          "API key or sender address missing, or the stored key cannot be decrypted (code conflict or mail_key_unreadable)",
      },
      502: { description: "The provider refused it or did not answer in time (the reason, in Dutch)" },
      503: { description: "The e-mail settings could not be read just now" },
    },
  },
] as const satisfies readonly ApiRoute[];
