import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService } from "@lease/platform";
import { httpLeadsSource, type LeadsSource } from "../../services/mailer/src/repositories/leads-source";
import { startMailer } from "@lease/mailer";
import { postLead, startPipeline, type Pipeline } from "./mail-pipeline";
import { waitFor } from "@lease/platform/testing";

// A new lead is one job: the mailer reads it from leads once for its inbox entry and the company's
// notification (two jobs used to read it twice over HTTP).

let p: Pipeline;
let mailer: RunningService;
const reads: string[] = [];

beforeAll(async () => {
  p = await startPipeline({}, { startMailer: false });
  const http = httpLeadsSource(p.env.LEADS_URL!, p.env.INTERNAL_TOKEN!);
  const counting: LeadsSource = {
    find(source, id, requestId) {
      reads.push(`${source}:${id}`);
      return http.find(source, id, requestId);
    },
  };
  mailer = await startMailer(p.env, { leads: counting });
});
afterAll(async () => {
  await mailer?.stop();
  await p?.stop();
});

describe("lead.received", () => {
  it("logs the inbox entry and notifies the company with one read of the lead", async () => {
    const res = await postLead(p.leads.url, {
      carUrl: "https://www.example.nl/auto/once",
      contactNumber: "0611223344",
      email: "once@bedrijf.nl",
      companyName: "Eenmaal BV",
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await waitFor(
      async () =>
        p.receiver.accepted().some((m) => m.subject === "Nieuwe lease aanvraag van Eenmaal BV") &&
        (await p.count("SELECT count(*) AS n FROM mailer.email_messages WHERE source_id = $1", [id])) === 1,
      15_000,
      "the inbox entry and the notification",
    );
    // One job for the mailer (the other outbox row of the lead is its conversion, for tracking).
    expect(
      await p.count(
        "SELECT count(*) AS n FROM leads.outbox WHERE payload->>'sourceId' = $1 AND job_name = 'lead.received'",
        [id],
      ),
    ).toBe(1);
    expect(
      await p.count("SELECT count(*) AS n FROM leads.outbox WHERE payload->>'sourceId' = $1", [id]),
    ).toBe(2);
    expect(reads).toEqual([`lease_request:${id}`]);
  });
});
