import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from "@opentelemetry/api";

// OpenTelemetry traces, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, and off otherwise. Off costs a boolean check: the SDK
// is not even loaded, no span objects are made, no trace context travels with requests or jobs.
// Spans are made by hand where a request or job crosses a boundary (HTTP in and out, the outbox,
// BullMQ, the visit stream, SendGrid): the services run as bundles, where patching libraries at
// load time (auto-instrumentation) would not reach.

let enabled = false;
const tracer = () => trace.getTracer("lease");

export { SpanKind, SpanStatusCode };
export type { Link, Span };

/** True once startTracing has set up an exporter in this process. */
export const tracingEnabled = (): boolean => enabled;

export interface Tracing {
  /** Exports what is still buffered and stops; spans made afterwards are dropped. */
  shutdown(): Promise<void>;
}

/** Sets up tracing for this process when an OTLP endpoint is configured; otherwise does nothing. */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<Tracing> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === "true") return { shutdown: async () => undefined };
  const [
    sdk,
    { OTLPTraceExporter },
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
    res,
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
  ]);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // OTEL_TRACES_SAMPLER=parentbased_traceidratio (or traceidratio) with OTEL_TRACES_SAMPLER_ARG=0.05
  // keeps that share of traces (decided where a trace starts: the gateway); default: every trace.
  const ratioSampler = /^(parentbased_)?traceidratio$/.test(env.OTEL_TRACES_SAMPLER ?? "");
  const ratio = ratioSampler ? Math.min(1, Math.max(0, Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1) || 0)) : 1;
  const provider = new sdk.TracerProvider({
    sampler: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(ratio) }),
    resource: res
      .defaultResource()
      .merge(res.resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || service })),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY) || 2000,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  enabled = true;
  return {
    async shutdown() {
      enabled = false;
      await provider.shutdown();
    },
  };
}

type Carrier = Record<string, string | string[] | undefined>;

/** The context a trace carrier (HTTP headers, job data) names, or a fresh root. */
export function contextFrom(carrier: Carrier | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}

/** Starts a span (ended by the caller) as a child of `parent` (the active context by default). */
export function startSpan(
  name: string,
  opts: { kind?: SpanKind; parent?: Context; links?: Link[]; attributes?: Attributes } = {},
): Span {
  return tracer().startSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, links: opts.links, attributes: opts.attributes },
    opts.parent ?? context.active(),
  );
}

/** Runs `fn` with `span` as the active span (so logs, outgoing calls and jobs carry its trace). */
export function withActiveSpan<T>(span: Span, fn: () => T, parent: Context = context.active()): T {
  return context.with(trace.setSpan(parent, span), fn);
}

/**
 * Runs `fn` in a span of its own, ended when `fn` settles (an error marks it failed). With tracing
 * off it only runs `fn`.
 */
export async function inSpan<T>(
  name: string,
  opts: { kind?: SpanKind; parent?: Context; links?: Link[]; attributes?: Attributes },
  fn: () => Promise<T>,
): Promise<T> {
  if (!enabled) return fn();
  const span = startSpan(name, opts);
  try {
    return await withActiveSpan(span, fn, opts.parent);
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

export function failSpan(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
}

/** Adds the active trace context to outgoing headers (traceparent); nothing while tracing is off. */
export function injectTraceHeaders(headers: Record<string, string | string[]>, from?: Context): void {
  if (enabled) propagation.inject(from ?? context.active(), headers);
}

/** The active trace context as a W3C traceparent, for what travels through storage (jobs, outbox, stream). */
export function currentTraceparent(from?: Context): string | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(from ?? context.active(), carrier);
  return carrier.traceparent;
}

/** True when the active span is one the sampler keeps (what is worth a link from elsewhere). */
export function activeSpanSampled(): boolean {
  return enabled && (trace.getSpan(context.active())?.isRecording() ?? false);
}

/** The traceparent naming `span` itself (what a job carries from its producer span). */
export function spanTraceparent(span: Span): string | undefined {
  return currentTraceparent(trace.setSpan(ROOT_CONTEXT, span));
}

/** The context whose parent is the span a link points to (its trace continues there). */
export const contextOfLink = (link: Link): Context => trace.setSpanContext(ROOT_CONTEXT, link.context);

/** A link to the span a stored traceparent names, or undefined when it names none. */
export function linkTo(traceparent: string | undefined): Link | undefined {
  if (!traceparent) return undefined;
  const spanContext = trace.getSpanContext(contextFrom({ traceparent }));
  return spanContext && trace.isSpanContextValid(spanContext) ? { context: spanContext } : undefined;
}

/**
 * pino mixin: the trace and span id of the active span on every log line. Loggers made after
 * startTracing get it (the services' own); pino merges into the returned object, so it is new each time.
 */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpan(context.active())?.spanContext();
  return span && trace.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}
