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

const seriesMax = (buckets: readonly VisitorSeriesBucket[]) =>
  niceMax(Math.max(0, ...buckets.map((bucket) => Math.max(bucket.visitors, bucket.pageViews))));

const tickNumber = new Intl.NumberFormat("nl-NL", { maximumFractionDigits: 1 });

/** A y-axis value as Dutch writes it: "0,5", "2.500", "100.000". */
export function formatTick(value: number): string {
  return tickNumber.format(value);
}

/** About how wide a label of the chart's 11 px sans-serif text is (digits are ~0.56 em; a margin). */
export function labelWidth(text: string, fontSize = 11): number {
  return Math.ceil(text.length * fontSize * 0.62);
}

/**
 * The geometry with a left margin wide enough for the y axis' longest label (its ticks: 0, half,
 * max), so that "100.000" is not cut to ".000" at the edge of the drawing.
 */
export function fitYAxis(buckets: readonly VisitorSeriesBucket[], geometry: ChartGeometry): ChartGeometry {
  const max = seriesMax(buckets);
  const widest = Math.max(...[0, max / 2, max].map((value) => labelWidth(formatTick(value))));
  const left = Math.max(geometry.padding.left, widest + 10);
  return { ...geometry, padding: { ...geometry.padding, left } };
}

/**
 * Where to centre an x-axis label: at its point, moved inwards just enough that it is not cut at
 * either edge of the drawing ("28 no" for "28 nov" at the right end).
 */
export function labelX(x: number, text: string, width: number): number {
  const half = labelWidth(text) / 2 + 2;
  return Math.min(Math.max(x, half), width - half);
}

/** SVG polyline points ("x,y x,y") for visitors and page views over the buckets. */
export function chartLines(buckets: readonly VisitorSeriesBucket[], geometry: ChartGeometry): ChartLines {
  const { width, height, padding } = geometry;
  const innerWidth = width - padding.left - padding.right;
  const innerHeight = height - padding.top - padding.bottom;
  const max = seriesMax(buckets);
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
