import { encode } from "uqr";

/** A QR code as one SVG path (no image, no script): dark modules on white, with a quiet zone. */
export function QrCode({ value, label, size = 192 }: { value: string; label: string; size?: number }) {
  const { data } = encode(value, { ecc: "M", border: 2 });
  let path = "";
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="qr-code"
      width={size}
      height={size}
      viewBox={`0 0 ${data.length} ${data.length}`}
      shapeRendering="crispEdges"
      className="rounded border border-gray-200 bg-white"
    >
      <rect width={data.length} height={data.length} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
