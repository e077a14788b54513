import type { VisitorSeriesBucket } from "@lease/contracts";

export interface ChartGeometry {
  width: number;
  height: number;
  padding: { top: number; right: number; bottom: number; left: number };
}

export interface ChartLines {
  max: number;
  visitors: string;
  pageViews: string;
  /** x position of each bucket, for axis labels. */
  xs: number[];
  /** Grid values shown on the y axis (0, half, max). */
  ticks: { value: number; y: number }[];
}

/** A rounded-up axis maximum: at least 1, then 1/2/5 x 10^n. */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

/** SVG polyline points ("x,y x,y") for visitors and page views over the buckets. */
export function chartLines(buckets: readonly VisitorSeriesBucket[], geometry: ChartGeometry): ChartLines {
  const { width, height, padding } = geometry;
  const innerWidth = width - padding.left - padding.right;
  const innerHeight = height - padding.top - padding.bottom;
  const max = niceMax(Math.max(0, ...buckets.map((bucket) => Math.max(bucket.visitors, bucket.pageViews))));
  const step = buckets.length > 1 ? innerWidth / (buckets.length - 1) : 0;
  const xs = buckets.map((_, index) =>
    round(padding.left + (buckets.length > 1 ? index * step : innerWidth / 2)),
  );
  const y = (value: number) => round(padding.top + innerHeight - (value / max) * innerHeight);
  const line = (pick: (bucket: VisitorSeriesBucket) => number) =>
    buckets.map((bucket, index) => `${xs[index]},${y(pick(bucket))}`).join(" ");
  return {
    max,
    visitors: line((bucket) => bucket.visitors),
    pageViews: line((bucket) => bucket.pageViews),
    xs,
    ticks: [0, max / 2, max].map((value) => ({ value, y: y(value) })),
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Every n-th label, so that about `wanted` labels fit under the chart. */
export function labelStride(count: number, wanted = 6): number {
  return Math.max(1, Math.ceil(count / wanted));
}
