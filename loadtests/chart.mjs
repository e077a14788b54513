// A small SVG line chart of p50/p99 latency against achieved throughput (no chart library needed).
export function latencyChartSvg(points) {
  const W = 640;
  const H = 360;
  const m = { l: 60, r: 20, t: 30, b: 50 };
  const maxX = Math.max(...points.map((p) => p.achieved), 1) * 1.05;
  const maxY = Math.max(...points.map((p) => p.p99), 1) * 1.1;
  const x = (v) => m.l + (v / maxX) * (W - m.l - m.r);
  const y = (v) => H - m.b - (v / maxY) * (H - m.t - m.b);
  const line = (key) =>
    points.map((p, i) => `${i ? "L" : "M"}${x(p.achieved).toFixed(1)},${y(p[key]).toFixed(1)}`).join(" ");
  const ticks = (max, n) => Array.from({ length: n + 1 }, (_, i) => (max * i) / n);
  const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${W / 2}" y="18" text-anchor="middle" font-size="13">${esc("POST /api/track/visit through the gateway: latency against throughput")}</text>
${ticks(maxX, 5)
  .map(
    (v) =>
      `<line x1="${x(v)}" y1="${y(0)}" x2="${x(v)}" y2="${m.t}" stroke="#eee"/><text x="${x(v)}" y="${H - m.b + 15}" text-anchor="middle">${Math.round(v)}</text>`,
  )
  .join("\n")}
${ticks(maxY, 5)
  .map(
    (v) =>
      `<line x1="${m.l}" y1="${y(v)}" x2="${W - m.r}" y2="${y(v)}" stroke="#eee"/><text x="${m.l - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`,
  )
  .join("\n")}
<line x1="${m.l}" y1="${y(0)}" x2="${W - m.r}" y2="${y(0)}" stroke="#333"/>
<line x1="${m.l}" y1="${y(0)}" x2="${m.l}" y2="${m.t}" stroke="#333"/>
<text x="${W / 2}" y="${H - 12}" text-anchor="middle">achieved requests per second</text>
<text x="14" y="${H / 2}" text-anchor="middle" transform="rotate(-90 14 ${H / 2})">latency (ms)</text>
<path d="${line("p50")}" fill="none" stroke="#10B981" stroke-width="2"/>
<path d="${line("p99")}" fill="none" stroke="#EA580C" stroke-width="2"/>
${points.map((p) => `<circle cx="${x(p.achieved)}" cy="${y(p.p99)}" r="3" fill="#EA580C"/><circle cx="${x(p.achieved)}" cy="${y(p.p50)}" r="3" fill="#10B981"/>`).join("\n")}
<rect x="${W - m.r - 110}" y="${m.t + 5}" width="105" height="38" fill="#fff" stroke="#ccc"/>
<line x1="${W - m.r - 100}" y1="${m.t + 17}" x2="${W - m.r - 80}" y2="${m.t + 17}" stroke="#EA580C" stroke-width="2"/><text x="${W - m.r - 75}" y="${m.t + 21}">p99</text>
<line x1="${W - m.r - 100}" y1="${m.t + 33}" x2="${W - m.r - 80}" y2="${m.t + 33}" stroke="#10B981" stroke-width="2"/><text x="${W - m.r - 75}" y="${m.t + 37}">p50</text>
</svg>
`;
}
