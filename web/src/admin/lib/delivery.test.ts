import { describe, expect, it } from "vitest";
import type { EmailMessage } from "@lease/contracts";
import { deliveryFromOutcome, deliveryOf, mergeDelivery, type DeliveryState } from "./delivery";

const ID = "6f1c2b8e-3d4a-4c5b-9e6f-7a8b9c0d1e2f";
const queued: DeliveryState = { id: ID, status: "queued", reason: null };
const email = (patch: Partial<EmailMessage>) =>
  ({ id: ID, deliveryStatus: "queued", failureReason: null, ...patch }) as EmailMessage;

describe("delivery state of a sent e-mail", () => {
  it("reads a stored e-mail: queued, retrying after a temporary failure, sent, failed", () => {
    expect(deliveryOf(email({}))).toEqual(queued);
    expect(deliveryOf(email({ failureReason: "SendGrid had een storing (503)." }))).toEqual({
      id: ID,
      status: "retrying",
      reason: "SendGrid had een storing (503).",
    });
    expect(deliveryOf(email({ deliveryStatus: "sent" }))?.status).toBe("sent");
    expect(deliveryOf(email({ deliveryStatus: "received" }))).toBeNull();
  });

  it("never lets an older 'queued' undo a decided send, and ignores other e-mails", () => {
    const sent = deliveryFromOutcome({
      emailId: ID,
      status: "sent",
      reason: null,
      at: "2026-01-01T00:00:00Z",
    });
    expect(mergeDelivery(queued, sent)).toEqual(sent);
    expect(mergeDelivery(sent, queued)).toEqual(sent);
    const other = { ...sent, id: "00000000-0000-4000-8000-000000000000" };
    expect(mergeDelivery(queued, other)).toEqual(queued);
    expect(mergeDelivery(null, sent)).toBeNull();
  });
});
