import { z } from "zod";
import { ActiveVisitor, VisitorStats } from "../entities/visitor";
import {
  EmailReceivedEvent,
  LeadAttributedEvent,
  LeadCreatedEvent,
  LeadEmailEvent,
  LeadOverdueEvent,
  MailOutcomeEvent,
} from "../events/channels";

/** Path of the admin WebSocket (same host; wss when the page is https). */
export const WS_PATH = "/ws";

export const VisitorUpdateMessage = z
  .object({
    type: z.literal("visitor-update"),
    data: z.object({ stats: VisitorStats, activeVisitors: z.array(ActiveVisitor) }),
  })
  .describe("Pushed to admin sockets; replaces the polled visitor data");
export type VisitorUpdateMessage = z.infer<typeof VisitorUpdateMessage>;

export const MailOutcomeMessage = z
  .object({ type: z.literal("mail-outcome"), data: MailOutcomeEvent })
  .describe("Pushed to admin sockets when the provider answered for an e-mail the admin sent");
export type MailOutcomeMessage = z.infer<typeof MailOutcomeMessage>;

export const LeadCreatedMessage = z
  .object({ type: z.literal("lead-created"), data: LeadCreatedEvent })
  .describe("Pushed to admin sockets when a quote request or contact message arrived");
export type LeadCreatedMessage = z.infer<typeof LeadCreatedMessage>;

export const LeadAttributedMessage = z
  .object({ type: z.literal("lead-attributed"), data: LeadAttributedEvent })
  .describe("Pushed to admin sockets when a lead's Herkomst was decided (found, or none for good)");
export type LeadAttributedMessage = z.infer<typeof LeadAttributedMessage>;

export const EmailReceivedMessage = z
  .object({ type: z.literal("email-received"), data: EmailReceivedEvent })
  .describe("Pushed to admin sockets when an e-mail arrived (a customer's reply or any other)");
export type EmailReceivedMessage = z.infer<typeof EmailReceivedMessage>;

export const LeadEmailMessage = z
  .object({ type: z.literal("lead-email"), data: LeadEmailEvent })
  .describe("Pushed to admin sockets when an e-mail of a lead is on its timeline (reload that lead)");
export type LeadEmailMessage = z.infer<typeof LeadEmailMessage>;

export const LeadOverdueMessage = z
  .object({ type: z.literal("lead-overdue"), data: LeadOverdueEvent })
  .describe("Pushed to admin sockets once when a lead passed its deadline without a response");
export type LeadOverdueMessage = z.infer<typeof LeadOverdueMessage>;

/** Every message the server sends on /ws. */
export const ServerWsMessage = z.discriminatedUnion("type", [
  VisitorUpdateMessage,
  MailOutcomeMessage,
  LeadCreatedMessage,
  LeadAttributedMessage,
  EmailReceivedMessage,
  LeadEmailMessage,
  LeadOverdueMessage,
]);
export type ServerWsMessage = z.infer<typeof ServerWsMessage>;
