import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderPrometheusRule } from "./observability/sync.mjs";

// The rules, their promtool unit tests, the runbook and the dashboard, checked offline. The same
// rules against a real Prometheus scraping the running stack: tests/system/observability.test.ts.

const INFRA = path.dirname(fileURLToPath(import.meta.url));
const OBS = path.join(INFRA, "observability");
const read = (file: string) => readFileSync(path.join(OBS, file), "utf8");

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rules = (parse(read("rules.yml")) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const alerts = rules.filter((r) => r.alert);
const recorded = rules.filter((r) => r.record).map((r) => r.record!);
const runbook = readFileSync(path.join(INFRA, "RUNBOOK.md"), "utf8");

const promtool = spawnSync("promtool", ["--version"], { encoding: "utf8" }).status === 0;
if (!promtool)
  console.log(
    "promtool not found: the rule checks are skipped. Install Debian's `prometheus` package " +
      "(npm test does so when it runs as root on Debian).",
  );

describe("alerting and recording rules", () => {
  it("alert on each condition the on-call needs", () => {
    expect(alerts.map((a) => a.alert).sort()).toEqual([
      "LeaseAdminCodeGuessing",
      "LeaseAdminPasswordGuessing",
      "LeaseAuditOutboxStuck",
      "LeaseConversionsFailed",
      "LeaseHigh5xxRate",
      "LeaseJobsFailed",
      "LeaseJobsRetrying",
      "LeaseLeadsOverdue",
      "LeaseMailFailed",
      "LeaseOutboxStuck",
      "LeaseRepliesUnmatched",
      "LeaseRestarting",
      "LeaseRouteSlow",
      "LeaseServiceDown",
      "LeaseVisitBacklogHigh",
    ]);
    for (const a of alerts) {
      expect(["page", "ticket"], a.alert).toContain(a.labels?.severity);
      expect(a.annotations?.summary, a.alert).toBeTruthy();
    }
  });

  it("link every alert to its own runbook entry with what it means, three checks and the recovery", () => {
    for (const a of alerts) {
      const anchor = a.alert!.toLowerCase();
      expect(a.annotations?.runbook_url, a.alert).toMatch(new RegExp(`/infra/RUNBOOK\\.md#${anchor}$`));
      const start = runbook.indexOf(`\n## ${a.alert}\n`);
      expect(start, `RUNBOOK.md has "## ${a.alert}"`).toBeGreaterThan(0);
      const next = runbook.indexOf("\n## ", start + 1);
      const entry = runbook.slice(start, next < 0 ? undefined : next);
      expect(entry, a.alert).toContain("**Means:**");
      expect(entry, a.alert).toContain("**Recover:**");
      const checks = entry.slice(entry.indexOf("**First checks**"), entry.indexOf("**Recover:**"));
      expect(checks.match(/^\d\. /gm), `${a.alert}: three first checks`).toHaveLength(3);
    }
  });

  it("have a promtool unit test for each alert that sees it fire and stay quiet", () => {
    const suite = parse(read("rules.test.yml")) as {
      tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const cases = suite.tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const a of alerts) {
      const mine = cases.filter((c) => c.alertname === a.alert);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${a.alert} fires in a test`,
      ).toBe(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${a.alert} stays quiet in a test`,
      ).toBe(true);
    }
  });

  it("are the same groups in the Kubernetes PrometheusRule (regenerate with node infra/observability/sync.mjs)", () => {
    expect(read("prometheus-rule.yaml")).toBe(renderPrometheusRule(read("rules.yml")));
  });

  it.skipIf(!promtool)("pass promtool check rules", () => {
    const out = spawnSync("promtool", ["check", "rules", path.join(OBS, "rules.yml")], { encoding: "utf8" });
    expect(out.stdout + out.stderr).toContain("SUCCESS");
    expect(out.status).toBe(0);
  });

  it.skipIf(!promtool)("pass their promtool unit tests", () => {
    const out = spawnSync("promtool", ["test", "rules", path.join(OBS, "rules.test.yml")], {
      encoding: "utf8",
    });
    expect(out.stdout + out.stderr).not.toContain("FAILED");
    expect(out.status, out.stdout + out.stderr).toBe(0);
  });
});

describe("the Grafana dashboard", () => {
  const dashboard = JSON.parse(read("dashboard.json")) as {
    uid: string;
    panels: { type: string; title: string; targets?: { expr: string }[] }[];
  };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

  it("shows the golden signals per service, the visit backlog against its bound, queues, outbox, sockets and fan-out", () => {
    expect(dashboard.uid).toBe("lease-broker");
    const wanted = [
      /rate\(http_requests_total/, // traffic
      /service:http_requests_5xx:ratio_rate5m/, // errors
      /service:http_request_duration_seconds:p99_5m/, // latency
      /service:http_requests_in_flight:sum/, // saturation
      /service:nodejs_eventloop_lag_p99_seconds:max/,
      /tracking_stream_backlog\)/,
      /tracking_stream_backlog_max\)/,
      /queue_state:bullmq_jobs:max\{state=~"waiting\|failed"\}/,
      /leads:outbox_oldest_pending_seconds:max/,
      /tracking:admin_sockets:sum/,
      /tracking:ws_fanout_seconds:p99_5m/,
    ];
    for (const pattern of wanted)
      expect(
        exprs.some((e) => pattern.test(e)),
        String(pattern),
      ).toBe(true);
  });

  it("uses only recording rules that exist", () => {
    const used = exprs.flatMap((e) =>
      [...e.matchAll(/\b([a-z_]+:[a-z0-9_]+:[a-z0-9_]+)\b/g)].map((m) => m[1]!),
    );
    expect(used.length).toBeGreaterThan(0);
    for (const name of used) expect(recorded, name).toContain(name);
  });
});
