import http from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { createRouteMatcher } from "@lease/contracts";
import type { Readiness } from "./app";
import type { Logger } from "./logger";
import { listen } from "./server";

export interface HttpMetrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route" | "status">;
}

/**
 * The `route` label of a request path: a template of the contracts' route tables
 * ("/api/admin/lease-requests/:id") or "unmatched". Never the raw path, so made-up paths and ids
 * cannot add series.
 */
export const routeLabel: (path: string) => string = createRouteMatcher();

/** One registry per app, so several services (or tests) in one process never collide. */
export function createMetrics(service: string, inFlight?: () => number): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by route template and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by route template",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  if (inFlight)
    new Gauge({
      name: "http_requests_in_flight",
      help: "Requests being handled now (saturation)",
      registers: [registry],
      collect() {
        this.set(inFlight());
      },
    });
  return { registry, requests, duration };
}

export interface MetricsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics on a listener of its own (METRICS_PORT), apart from the public port: only
 * Prometheus and the cluster reach it (127.0.0.1 locally, the metrics port in Kubernetes). With
 * `readiness`, also GET /readyz with each check's outcome (the readiness probe's port; the public
 * port answers only up or down). Anything else is a 404.
 */
export async function startMetricsServer(
  registry: Registry,
  opts: {
    host: string;
    port: number;
    logger: Logger;
    service?: string;
    readiness?: () => Promise<Readiness>;
  },
): Promise<MetricsServer> {
  const { readiness } = opts;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "GET" && path === "/readyz" && readiness) {
      readiness().then(({ ready, checks }) =>
        res
          .writeHead(ready ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" })
          .end(JSON.stringify({ status: ready ? "ready" : "not_ready", service: opts.service, checks })),
      );
      return;
    }
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      (err: Error) => {
        opts.logger.warn({ err: err.message }, "metrics collection failed");
        res.writeHead(500, { "content-type": "text/plain" }).end("metrics collection failed\n");
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const { port, url } = await listen(server, opts.port, opts.host);
  return {
    port,
    url: `${url}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
