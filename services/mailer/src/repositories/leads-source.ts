import { z } from "zod";
import {
  OpenLeadsByEmail,
  type InternalLeadEmail,
  InternalContactMessage,
  InternalFollowUpsDue,
  InternalLeaseRequest,
  InternalStaff,
  InternalWeeklySummary,
  type JobSource,
} from "@lease/contracts";
import { InternalCallError, createInternalClient } from "@lease/platform";
import { renderContactMessage, renderLeaseRequest, type RenderedMail } from "../domain/templates";

/** What the mailer needs to know about a lead or contact message (read from the leads service). */
export interface SourceMessage {
  mail: RenderedMail;
  senderName: string;
  senderEmail: string;
  receivedAt: Date;
  leaseRequestId: string | null;
}

export interface LeadsSource {
  /** undefined when the lead or message no longer exists (deleted before the job ran). */
  find(source: JobSource, id: string, requestId?: string): Promise<SourceMessage | undefined>;
  /** How many lease requests are to be followed up today or earlier (absent: not known). */
  followUpsDue?(requestId?: string): Promise<number>;
  /** The open leads with this address (at most two). */
  openLeadsByEmail?(email: string): Promise<string[]>;
  /** An admin as leads knows them (address and choices for their notices); undefined: unknown. */
  staff?(adminId: string, requestId?: string): Promise<InternalStaff | undefined>;
  /** One admin's figures of a week for the weekly summary; undefined: the admin is unknown. */
  weeklySummary?(
    adminId: string,
    week: string,
    requestId?: string,
  ): Promise<InternalWeeklySummary | undefined>;
  /** Tells leads the e-mail of a lead as it is now; false when the lead is gone. */
  putLeadEmail?(leaseRequestId: string, email: InternalLeadEmail, requestId?: string): Promise<boolean>;
  /** Tells leads a contact message's sender was answered at `at`; false when the message is gone. */
  contactAnswered?(contactMessageId: string, at: string, requestId?: string): Promise<boolean>;
}

export function httpLeadsSource(leadsUrl: string, internalToken: string): LeadsSource {
  const call = createInternalClient(leadsUrl, internalToken);
  /** A PUT that leads answers 204; false when it answers 404 (the lead or message is gone). */
  const put = async (path: string, body: unknown, requestId?: string) => {
    try {
      await call(path, z.undefined(), { method: "PUT", body, requestId });
      return true;
    } catch (err) {
      if (err instanceof InternalCallError && err.status === 404) return false;
      throw err;
    }
  };
  return {
    async find(source, id, requestId) {
      try {
        if (source === "lease_request") {
          const lead = await call(`/internal/lease-requests/${id}`, InternalLeaseRequest, { requestId });
          return {
            mail: renderLeaseRequest(lead),
            senderName: lead.companyName?.trim() || lead.email,
            senderEmail: lead.email,
            receivedAt: new Date(lead.createdAt),
            leaseRequestId: lead.id,
          };
        }
        const msg = await call(`/internal/contact-messages/${id}`, InternalContactMessage, { requestId });
        return {
          mail: renderContactMessage(msg),
          senderName: msg.name,
          senderEmail: msg.email,
          receivedAt: new Date(msg.createdAt),
          leaseRequestId: null,
        };
      } catch (err) {
        if (err instanceof InternalCallError && err.status === 404) return undefined;
        throw err;
      }
    },
    async staff(adminId, requestId) {
      try {
        return await call(`/internal/staff/${adminId}`, InternalStaff, { requestId });
      } catch (err) {
        if (err instanceof InternalCallError && err.status === 404) return undefined;
        throw err;
      }
    },
    async weeklySummary(adminId, week, requestId) {
      try {
        return await call(
          `/internal/staff/${adminId}/weekly-summary?${new URLSearchParams({ week })}`,
          InternalWeeklySummary,
          { requestId },
        );
      } catch (err) {
        if (err instanceof InternalCallError && err.status === 404) return undefined;
        throw err;
      }
    },
    async followUpsDue(requestId) {
      return (await call("/internal/follow-ups/due", InternalFollowUpsDue, { requestId })).due;
    },
    async openLeadsByEmail(email) {
      const answer = await call("/internal/lease-requests/open-by-email", OpenLeadsByEmail, {
        method: "POST",
        body: { email },
      });
      return answer.ids;
    },
    putLeadEmail: (leaseRequestId, email, requestId) =>
      put(`/internal/lease-requests/${leaseRequestId}/emails/${email.id}`, email, requestId),
    contactAnswered: (contactMessageId, at, requestId) =>
      put(`/internal/contact-messages/${contactMessageId}/first-response`, { at, kind: "email" }, requestId),
  };
}
