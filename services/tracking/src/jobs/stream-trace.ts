import {
  SpanKind,
  activeSpanSampled,
  contextFrom,
  currentTraceparent,
  inSpan,
  linkTo,
  tracingEnabled,
  type Link,
} from "@lease/platform";

// The visit stream's part of tracing, kept apart from the recorder and the writer: with tracing
// on, each stream entry carries the trace context of the request that recorded it (field "tc"),
// and the writer's batch span links to those contexts. With tracing off no field is written and
// the writer makes no span, so ingest costs what it did.

/** Stream field holding the recording request's W3C traceparent. */
export const TRACE_FIELD = "tc";

/**
 * What the record script appends to each entry it writes: the active trace context when its trace
 * is sampled, or "" (nothing): a link to an unsampled trace leads nowhere.
 */
export const streamTraceContext = (): string => (activeSpanSampled() ? (currentTraceparent() ?? "") : "");

type Entry = [id: string, fields: string[]];

/** Runs the write of a batch of stream entries in a span linked to every trace the batch carries. */
export function traceStreamBatch<T>(entries: Entry[], write: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return write();
  const links = new Map<string, Link>();
  for (const [, fields] of entries)
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const value = fields[i + 1]!;
      if (fields[i] !== TRACE_FIELD || links.has(value)) continue;
      const link = linkTo(value);
      if (link) links.set(value, link);
    }
  return inSpan(
    "write page view batch",
    {
      kind: SpanKind.CONSUMER,
      parent: contextFrom(undefined),
      links: [...links.values()],
      attributes: { "messaging.batch.message_count": entries.length },
    },
    write,
  );
}
