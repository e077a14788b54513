import http from "node:http";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  adminCookie,
  createTestDatabase,
  freePort,
  startSendgridReceiver,
  waitFor,
  type SendgridReceiver,
  type TestDatabase,
} from "@lease/platform/testing";
import { buildServicesUnlessBuilt } from "../../scripts/build.mjs";
import { hasPrometheus, startPrometheus, type RunningPrometheus } from "../../scripts/lib/prometheus.mjs";
import { startStack, type Stack } from "../../scripts/lib/stack.mjs";

// What an SRE relies on, against the real built stack (one process per service):
// - Debian's Prometheus scrapes every service's metrics listener with the project's rules: every
//   target is up, every recording rule and every dashboard query returns data;
// - OpenTelemetry: one quote request is one trace from the gateway to the SendGrid send, across the
//   outbox and BullMQ, received here by a small OTLP/HTTP endpoint; every log line of the request
//   carries its trace id; the visit stream's writer links its batch to the beacons' traces.

interface OtlpSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  links: { traceId: string; spanId: string }[];
}
const KIND = { server: 2, client: 3, producer: 4, consumer: 5 };

/** A local OTLP/HTTP trace endpoint (JSON encoding), keeping every span it receives. */
async function startOtlpReceiver() {
  const spans: OtlpSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: Omit<OtlpSpan, "service">[] }[];
          }[];
        };
        for (const rs of body.resourceSpans) {
          const service =
            rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "?";
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans) spans.push({ ...s, service, links: s.links ?? [] });
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const LOG_DIR = ".tmp/stack-observability";
let db: TestDatabase;
let stack: Stack;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let sendgrid: SendgridReceiver;
let cookie: string;

beforeAll(async () => {
  await buildServicesUnlessBuilt();
  db = await createTestDatabase("observe");
  otlp = await startOtlpReceiver();
  sendgrid = await startSendgridReceiver();
  stack = await startStack({
    databaseUrl: db.url,
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    env: {
      LOG_LEVEL: "debug",
      LEAD_RATE_LIMIT: "1000",
      SENDGRID_API_BASE_URL: sendgrid.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_BSP_SCHEDULE_DELAY: "200",
    },
    logDir: LOG_DIR,
  });
  cookie = await adminCookie(stack.env);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await otlp?.close();
  await sendgrid?.close();
  await db?.drop();
});

const send = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}${path}`, {
    method: path.includes("company-settings") ? "PUT" : "POST",
    headers: { "content-type": "application/json", origin: stack.url, ...headers },
    body: JSON.stringify(body),
  });
const quote = (email: string) =>
  send("/api/lease-requests", {
    carUrl: "https://www.autoscout24.nl/aanbod/volvo-ex30",
    contactNumber: "+31 6 1234 5678",
    email,
    companyName: "Trace Transport BV",
    leaseTerm: 48,
  });
const visit = (sessionId: string) =>
  send(
    "/api/track/visit",
    { sessionId, page: "/financiele-lease", referrer: "" },
    { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0" },
  );

describe.skipIf(!hasPrometheus())("a real Prometheus against the running stack", () => {
  let prometheus: RunningPrometheus;
  afterAll(() => prometheus?.stop());

  it("finds every target up, and data for every recording rule and every dashboard query", async () => {
    prometheus = await startPrometheus({
      targets: stack.processes.map((p) => ({ service: p.name, address: new URL(p.metricsUrl).host })),
      port: await freePort(),
      logFile: `${LOG_DIR}/prometheus.log`,
    });
    // Traffic for the rates: a visit and a quote, besides the launcher's health checks.
    expect((await visit(`session-observe-${Date.now()}`)).status).toBe(204);
    expect((await quote("metrics@klant.nl")).status).toBe(201);

    const targets = await waitFor(
      async () => {
        const t = await prometheus.targets();
        return t.length === 6 && t.every((x) => x.health === "up") ? t : undefined;
      },
      15_000,
      "every target up",
    );
    expect(targets.map((t) => t.service).sort()).toEqual([
      "conversions",
      "gateway",
      "leads",
      "mailer",
      "settings",
      "tracking",
    ]);

    const rules = await prometheus.rules();
    const recording = rules.filter((r) => r.type === "recording").map((r) => r.name);
    const ruleFile = parse(readFileSync("infra/observability/rules.yml", "utf8")) as {
      groups: { rules: { record?: string }[] }[];
    };
    expect(recording.sort()).toEqual(
      ruleFile.groups.flatMap((g) => g.rules.flatMap((r) => (r.record ? [r.record] : []))).sort(),
    );
    for (const name of recording)
      await waitFor(async () => (await prometheus.query(name)).length > 0, 15_000, `data for ${name}`);

    const dashboard = JSON.parse(readFileSync("infra/observability/dashboard.json", "utf8")) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    for (const panel of dashboard.panels)
      for (const { expr } of panel.targets ?? []) {
        const query = expr.replaceAll("$service", ".*").replaceAll("$__rate_interval", "1m");
        await waitFor(
          async () => (await prometheus.query(query)).length > 0,
          10_000,
          `data for "${panel.title}": ${query}`,
        );
      }

    // Alert rules evaluate without errors, and a healthy stack fires none of the service alerts.
    await waitFor(async () => (await prometheus.rules()).every((r) => r.health === "ok"), 10_000, "rules ok");
    const firing = (await prometheus.rules()).filter(
      (r) => r.type === "alerting" && r.state === "firing" && r.name === "LeaseServiceDown",
    );
    expect(firing).toEqual([]);
  }, 90_000);
});

describe("OpenTelemetry traces", () => {
  it("follow one quote request in one trace from the gateway through the queue to the SendGrid send", async () => {
    const settings = await send(
      "/api/admin/company-settings",
      {
        emailAddress: "verkoop@lease.example.nl",
        sendgridApiKey: "SG.trace-test-key-0123456789",
        fromEmailAddress: "noreply@lease.example.nl",
      },
      { cookie },
    );
    expect(settings.status).toBe(200);

    const seen = otlp.spans.length;
    const res = await quote("trace@klant.nl");
    expect(res.status).toBe(201);
    const requestId = res.headers.get("x-request-id")!;
    await waitFor(
      () => sendgrid.accepted().find((m) => m.subject.includes("Trace Transport BV")),
      20_000,
      "the notification at SendGrid",
    );

    const entry = await waitFor(
      () =>
        otlp.spans
          .slice(seen)
          .find(
            (s) => s.service === "gateway" && s.kind === KIND.server && s.name === "POST /api/lease-requests",
          ),
      10_000,
      "the gateway's span",
    );
    const inTrace = () => otlp.spans.filter((s) => s.traceId === entry.traceId);
    const has = (service: string, kind: number, name: string) =>
      inTrace().some((s) => s.service === service && s.kind === kind && s.name === name);
    // Every hop, in one trace: gateway → leads → (outbox) → BullMQ → mailer → SendGrid. Each
    // process exports its spans in batches, as they end: the job's consumer span ends after the send
    // it contains, so it can arrive in a later batch than the send's span.
    const hops: [string, number, string][] = [
      ["leads", KIND.server, "POST /api/lease-requests"],
      ["leads", KIND.producer, "publish lead.received"],
      ["mailer", KIND.consumer, "process lead.received"],
      ["leads", KIND.server, "GET /internal/lease-requests/:id"],
      ["mailer", KIND.client, "POST /v3/mail/send"],
    ];
    await waitFor(() => hops.every((hop) => has(...hop)), 10_000, "every hop's span").catch(() => undefined);
    for (const hop of hops) expect(has(...hop), hop.join(" ")).toBe(true);
    const trace = inTrace();

    // The mailer reads the lead once for its inbox entry and the company's notification.
    const reads = trace.filter(
      (s) => s.service === "leads" && s.kind === KIND.server && s.name === "GET /internal/lease-requests/:id",
    );
    expect(reads).toHaveLength(1);
    // One tree: the gateway's span is the only root, every other span's parent is in the trace.
    const ids = new Set(trace.map((s) => s.spanId));
    const roots = trace.filter((s) => !s.parentSpanId);
    expect(roots.map((s) => s.spanId)).toEqual([entry.spanId]);
    for (const s of trace) if (s.parentSpanId) expect(ids.has(s.parentSpanId), s.name).toBe(true);
    // The mail send descends from the gateway's span.
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    let at = trace.find((s) => s.name === "POST /v3/mail/send");
    const path: string[] = [];
    while (at) {
      path.unshift(`${at.service}: ${at.name}`);
      at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined;
    }
    expect(path[0]).toBe("gateway: POST /api/lease-requests");
    expect(path).toContain("leads: publish lead.received");

    // Every log line of the request, in the gateway and in leads, carries the trace id.
    for (const service of ["gateway", "leads"]) {
      const lines = readFileSync(`${LOG_DIR}/${service}.log`, "utf8")
        .split("\n")
        .filter((l) => l.includes(`"reqId":"${requestId}"`))
        .map((l) => JSON.parse(l) as { trace_id?: string });
      expect(lines.length, service).toBeGreaterThan(0);
      for (const line of lines) expect(line.trace_id, service).toBe(entry.traceId);
    }
  }, 60_000);

  it("link the visit stream writer's batch to the beacons it writes", async () => {
    expect((await visit(`session-trace-${Date.now()}`)).status).toBe(204);
    const beacon = await waitFor(
      () =>
        otlp.spans.findLast(
          (s) => s.service === "gateway" && s.kind === KIND.server && s.name === "POST /api/track/visit",
        ),
      10_000,
      "the beacon's span",
    );
    // gateway batch call (links the beacon) → tracking batch route → stream entry → writer batch.
    const call = await waitFor(
      () => otlp.spans.find((s) => s.kind === KIND.client && s.links.some((l) => l.spanId === beacon.spanId)),
      10_000,
      "the batch call linked to the beacon",
    );
    const route = await waitFor(
      () =>
        otlp.spans.find(
          (s) => s.service === "tracking" && s.parentSpanId === call.spanId && s.kind === KIND.server,
        ),
      10_000,
      "tracking's batch route",
    );
    expect(route.name).toBe("POST /internal/track/batch");
    const writer = await waitFor(
      () =>
        otlp.spans.find(
          (s) =>
            s.service === "tracking" &&
            s.name === "write page view batch" &&
            s.links.some((l) => l.traceId === route.traceId && l.spanId === route.spanId),
        ),
      15_000,
      "the writer's batch span linked to the route",
    );
    expect(writer.kind).toBe(KIND.consumer);
  }, 40_000);
});
