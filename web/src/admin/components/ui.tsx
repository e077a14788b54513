import type { ComponentProps, ReactNode } from "react";
import type { BadgeTone } from "../lib/lease-status";

const TONES: Record<BadgeTone | "gray" | "blue", string> = {
  red: "bg-red-100 text-red-800 ring-red-200",
  yellow: "bg-yellow-100 text-yellow-800 ring-yellow-200",
  green: "bg-green-100 text-green-800 ring-green-200",
  blue: "bg-blue-100 text-blue-800 ring-blue-200",
  gray: "bg-gray-100 text-gray-700 ring-gray-200",
  plain: "text-gray-700 ring-transparent",
};

export function Badge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <span
      data-testid="badge"
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

type Variant = "primary" | "secondary" | "danger" | "accent";

const VARIANTS: Record<Variant, string> = {
  primary: "bg-primary-strong text-white hover:bg-primary-hover-strong",
  accent: "bg-accent-strong text-white hover:brightness-95",
  secondary: "border border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
  danger: "bg-red-600 text-white hover:bg-red-700",
};

export function adminButtonClass(variant: Variant = "primary", extra = ""): string {
  return `inline-flex items-center justify-center gap-2 rounded-button px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${extra}`.trim();
}

export function Button({
  variant = "primary",
  className = "",
  type = "button",
  ...rest
}: ComponentProps<"button"> & { variant?: Variant }) {
  return <button type={type} className={adminButtonClass(variant, className)} {...rest} />;
}

export function Panel({
  title,
  actions,
  children,
  className = "",
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`rounded-card border border-gray-200 bg-white p-4 shadow-sm sm:p-6 ${className}`}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          {title && <h2 className="text-lg font-semibold text-gray-900">{title}</h2>}
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function Counter({
  label,
  value,
  tone = "text-gray-900",
}: {
  label: string;
  value: ReactNode;
  tone?: string;
}) {
  return (
    <div
      className="rounded-card border border-gray-200 bg-white p-4 shadow-sm"
      data-testid={`counter-${label}`}
    >
      <p className="text-sm font-medium text-gray-600">{label}</p>
      <p className={`mt-1 text-2xl font-bold ${tone}`} data-testid="counter-value">
        {value}
      </p>
    </div>
  );
}

export const TEXT_INPUT =
  "mt-1 block w-full rounded-button border border-gray-300 bg-white px-3 py-2 text-gray-900 read-only:bg-gray-50 disabled:bg-gray-100 focus:border-primary";

/** A labelled settings field with its server message underneath. */
export function SettingsField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-semibold text-gray-800">
        {label}
      </label>
      {children}
      {hint && (
        <div id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${id}-fout`} className="mt-1 text-sm font-medium text-red-700" data-testid="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function LoadingText({ children = "Laden..." }: { children?: ReactNode }) {
  return (
    <p className="py-8 text-center text-gray-600" role="status">
      {children}
    </p>
  );
}
