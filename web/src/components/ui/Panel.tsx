import type { ReactNode } from "react";

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
  hint,
  className = "",
}: {
  label: string;
  value: ReactNode;
  tone?: string;
  /** What exactly is counted, in a line under the figure. */
  hint?: string;
  className?: string;
}) {
  return (
    <div
      className={`rounded-card border border-gray-200 bg-white p-4 shadow-sm ${className}`}
      data-testid={`counter-${label}`}
    >
      <p className="text-sm font-medium text-gray-600">{label}</p>
      <p className={`mt-1 text-2xl font-bold ${tone}`} data-testid="counter-value">
        {value}
      </p>
      {hint && (
        <p className="mt-1 text-xs text-gray-600" data-testid="counter-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
