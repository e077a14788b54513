import type { AnalyticsBucket, AnalyticsPoint } from "@lease/contracts";
import { useEffect, useRef, useState, type RefObject } from "react";
import { chartLines, fitYAxis, formatTick, labelStride, labelX } from "../lib/chart";
import { formatBucketLabel } from "../lib/format";

const GEOMETRY = { width: 720, height: 240, padding: { top: 12, right: 12, bottom: 28, left: 36 } };
const MIN_WIDTH = 280;
/** Pixels per time label along the x axis. */
const LABEL_ROOM = 110;
export const VISITORS_COLOR = "#2563EB";
export const PAGE_VIEWS_COLOR = "#EA580C";

/** Visitors and page views of a period as an inline SVG line chart, one point per bucket. */
export function VisitorChart({
  series,
  bucket,
  label,
}: {
  series: readonly AnalyticsPoint[];
  bucket: AnalyticsBucket;
  /** What the chart shows, for screen readers. */
  label: string;
}) {
  // Drawn at the width it gets (1 unit = 1 px), so its labels stay readable on a phone instead of
  // shrinking with a scaled viewBox; fewer time labels where there is less room.
  const frame = useRef<HTMLDivElement>(null);
  const measured = useWidth(frame, GEOMETRY.width);
  const geometry = fitYAxis(series, { ...GEOMETRY, width: Math.max(MIN_WIDTH, measured) });
  const lines = chartLines(series, geometry);
  const stride = labelStride(series.length, Math.max(3, Math.floor(geometry.width / LABEL_ROOM)));
  return (
    <div ref={frame}>
      <svg
        viewBox={`0 0 ${geometry.width} ${GEOMETRY.height}`}
        className="h-auto w-full"
        role="img"
        aria-label={label}
        data-testid="visitor-chart"
      >
        {lines.ticks.map((tick) => (
          <g key={tick.value}>
            <line
              x1={geometry.padding.left}
              x2={geometry.width - GEOMETRY.padding.right}
              y1={tick.y}
              y2={tick.y}
              stroke="#E5E7EB"
            />
            <text x={geometry.padding.left - 6} y={tick.y + 4} textAnchor="end" fontSize="11" fill="#6B7280">
              {formatTick(tick.value)}
            </text>
          </g>
        ))}
        {series.map((point, index) => {
          if (index % stride !== 0) return null;
          const text = formatBucketLabel(point.start, bucket);
          return (
            <text
              key={point.start}
              x={labelX(lines.xs[index] ?? 0, text, geometry.width)}
              y={GEOMETRY.height - 8}
              textAnchor="middle"
              fontSize="11"
              fill="#6B7280"
            >
              {text}
            </text>
          );
        })}
        {series.length > 0 && (
          <>
            <polyline points={lines.pageViews} fill="none" stroke={PAGE_VIEWS_COLOR} strokeWidth="2" />
            <polyline points={lines.visitors} fill="none" stroke={VISITORS_COLOR} strokeWidth="2" />
          </>
        )}
      </svg>
    </div>
  );
}

export function Legend({ color, label }: { color: string; label: string }) {
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
