import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_TYPE_LABELS, type EmailMessageList, type LeaseRequestListResponse } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import { freePort, waitFor } from "@lease/platform/testing";
import { startGateway } from "@lease/gateway";
import { startPipeline, type Pipeline } from "./mail-pipeline";

// The "done when": a quote submitted through the gateway is stored, appears in the admin
// list, shows up in the inbox as "Lease Aanvraag" and reaches the SendGrid receiver.

let p: Pipeline;
let gw: RunningService;
let cookie: string;
beforeAll(async () => {
  p = await startPipeline();
  gw = await startGateway({
    ...p.env,
    LEADS_URL: p.leads.url,
    MAILER_URL: p.mailer!.url,
    SETTINGS_URL: p.settings.url,
    TRACKING_URL: `http://127.0.0.1:${await freePort()}`,
    WEB_DIST_DIR: "/nonexistent",
  });
  cookie = await p.adminCookie();
});
afterAll(async () => {
  await gw?.stop();
  await p?.stop();
});

const viaGateway = (path: string, init: RequestInit = {}) =>
  fetch(`${gw.url}${path}`, {
    ...init,
    headers: { origin: gw.url, cookie, "content-type": "application/json", ...(init.headers ?? {}) },
  });

describe("a quote through the gateway", () => {
  it("is stored, listed for the admin, logged in the inbox as Lease Aanvraag and mailed to the company", async () => {
    const res = await viaGateway("/api/lease-requests", {
      method: "POST",
      headers: { cookie: "" },
      body: JSON.stringify({
        carUrl: "https://www.autoscout24.nl/aanbod/audi-q4",
        contactNumber: "+31 6 1234 5678",
        email: "gateway@klant.nl",
        companyName: "Gateway Klant BV",
        leaseTerm: 36,
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };

    const list = (await (await viaGateway("/api/admin/lease-requests")).json()) as LeaseRequestListResponse;
    expect(list.items.find((r) => r.id === id)).toMatchObject({ email: "gateway@klant.nl", status: "nieuw" });

    const entry = await waitFor(
      async () =>
        ((await (await viaGateway("/api/admin/emails")).json()) as EmailMessageList).find(
          (m) => m.senderEmail === "gateway@klant.nl",
        ),
      10_000,
      "inbox entry",
    );
    expect(EMAIL_TYPE_LABELS[entry.messageType]).toBe("Lease Aanvraag");

    const mail = await waitFor(
      async () => p.receiver.accepted().find((m) => m.subject.includes("Gateway Klant BV")),
      10_000,
      "mail",
    );
    expect(mail.subject).toBe("Nieuwe lease aanvraag van Gateway Klant BV");
  });
});
