import { useQuery } from "@tanstack/react-query";
import type { VisitorSeriesRange } from "@lease/contracts";
import { useEffect, useRef, useState, type RefObject } from "react";
import { ADMIN_KEYS, fetchVisitorSeries } from "../api";
import { Button, Panel } from "../components/ui";
import { chartLines, labelStride } from "../lib/chart";
import { formatBucketLabel } from "../lib/format";

const GEOMETRY = { width: 720, height: 240, padding: { top: 12, right: 12, bottom: 28, left: 36 } };
const RANGES: { value: VisitorSeriesRange; label: string }[] = [
  { value: "24h", label: "24 uur" },
  { value: "7d", label: "7 dagen" },
];
const MIN_WIDTH = 280;
/** Pixels per time label along the x axis. */
const LABEL_ROOM = 110;
const VISITORS_COLOR = "#2563EB";
const PAGE_VIEWS_COLOR = "#EA580C";

/** Visitors and page views over time as an inline SVG line chart. */
export function VisitorChart() {
  const [range, setRange] = useState<VisitorSeriesRange>("24h");
  const series = useQuery({
    queryKey: [...ADMIN_KEYS.visitorSeries, range],
    queryFn: () => fetchVisitorSeries(range),
    refetchInterval: 60_000,
    staleTime: 0,
  });
  const buckets = series.data?.buckets ?? [];
  // Drawn at the width it gets (1 unit = 1 px), so its labels stay readable on a phone instead of
  // shrinking with a scaled viewBox; fewer time labels where there is less room.
  const frame = useRef<HTMLDivElement>(null);
  const measured = useWidth(frame, GEOMETRY.width);
  const geometry = { ...GEOMETRY, width: Math.max(MIN_WIDTH, measured) };
  const lines = chartLines(buckets, geometry);
  const stride = labelStride(buckets.length, Math.max(3, Math.floor(geometry.width / LABEL_ROOM)));
  const totals = buckets.reduce(
    (sum, bucket) => ({
      visitors: sum.visitors + bucket.visitors,
      pageViews: sum.pageViews + bucket.pageViews,
    }),
    { visitors: 0, pageViews: 0 },
  );

  return (
    <Panel
      title="Bezoekers en paginaweergaven"
      actions={RANGES.map((option) => (
        <Button
          key={option.value}
          variant={range === option.value ? "primary" : "secondary"}
          aria-pressed={range === option.value}
          onClick={() => setRange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    >
      <div className="mb-2 flex flex-wrap gap-4 text-sm text-gray-700">
        <Legend color={VISITORS_COLOR} label={`Bezoekers (${totals.visitors})`} />
        <Legend color={PAGE_VIEWS_COLOR} label={`Paginaweergaven (${totals.pageViews})`} />
      </div>
      {series.isError ? (
        <p className="py-8 text-center text-gray-600">De grafiek kon niet worden geladen.</p>
      ) : (
        <div ref={frame}>
          <svg
            viewBox={`0 0 ${geometry.width} ${GEOMETRY.height}`}
            className="h-auto w-full"
            role="img"
            aria-label={`Bezoekers en paginaweergaven over de laatste ${range === "24h" ? "24 uur" : "7 dagen"}`}
            data-testid="visitor-chart"
          >
            {lines.ticks.map((tick) => (
              <g key={tick.value}>
                <line
                  x1={GEOMETRY.padding.left}
                  x2={geometry.width - GEOMETRY.padding.right}
                  y1={tick.y}
                  y2={tick.y}
                  stroke="#E5E7EB"
                />
                <text
                  x={GEOMETRY.padding.left - 6}
                  y={tick.y + 4}
                  textAnchor="end"
                  fontSize="11"
                  fill="#6B7280"
                >
                  {Number.isInteger(tick.value) ? tick.value : tick.value.toFixed(1)}
                </text>
              </g>
            ))}
            {buckets.map((bucket, index) =>
              index % stride === 0 ? (
                <text
                  key={bucket.start}
                  x={lines.xs[index]}
                  y={GEOMETRY.height - 8}
                  textAnchor="middle"
                  fontSize="11"
                  fill="#6B7280"
                >
                  {formatBucketLabel(bucket.start, range === "24h")}
                </text>
              ) : null,
            )}
            {buckets.length > 0 && (
              <>
                <polyline points={lines.pageViews} fill="none" stroke={PAGE_VIEWS_COLOR} strokeWidth="2" />
                <polyline points={lines.visitors} fill="none" stroke={VISITORS_COLOR} strokeWidth="2" />
              </>
            )}
          </svg>
        </div>
      )}
    </Panel>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <span className="flex items-center gap-2">
      <span className="h-2 w-4 rounded" style={{ background: color }} aria-hidden="true" />
      {label}
    </span>
  );
}

/** The element's content width, following resizes; `fallback` until it is measured. */
function useWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
