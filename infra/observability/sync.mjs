#!/usr/bin/env node
// Writes prometheus-rule.yaml (the PrometheusRule Kubernetes loads) from rules.yml (the file
// Prometheus loads with Compose), so the two never differ: edit rules.yml, then run
//   node infra/observability/sync.mjs
// infra/observability.test.ts fails while they differ.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));

export function prometheusRule(rulesText) {
  return {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: {
      name: "lease",
      labels: { "app.kubernetes.io/part-of": "lease" },
    },
    spec: { groups: parse(rulesText).groups },
  };
}

export function renderPrometheusRule(rulesText) {
  return `# Generated from rules.yml by \`node infra/observability/sync.mjs\`: edit rules.yml, not this file.\n${stringify(
    prometheusRule(rulesText),
    { lineWidth: 0 },
  )}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(here("prometheus-rule.yaml"), renderPrometheusRule(readFileSync(here("rules.yml"), "utf8")));
  console.log("wrote infra/observability/prometheus-rule.yaml");
}
