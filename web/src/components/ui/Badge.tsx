import type { ReactNode } from "react";

export type BadgeTone = "red" | "yellow" | "green" | "blue" | "gray" | "plain";

const TONES: Record<BadgeTone, string> = {
  red: "bg-red-100 text-red-800 ring-red-200",
  yellow: "bg-yellow-100 text-yellow-800 ring-yellow-200",
  green: "bg-green-100 text-green-800 ring-green-200",
  blue: "bg-blue-100 text-blue-800 ring-blue-200",
  gray: "bg-gray-100 text-gray-700 ring-gray-200",
  plain: "text-gray-700 ring-transparent",
};

/** `wrap`: a badge of a sentence may break over lines (on a phone) instead of running off the page. */
export function Badge({
  tone,
  children,
  wrap = false,
}: {
  tone: BadgeTone;
  children: ReactNode;
  wrap?: boolean;
}) {
  return (
    <span
      data-testid="badge"
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${wrap ? "whitespace-normal" : "whitespace-nowrap"} ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}
