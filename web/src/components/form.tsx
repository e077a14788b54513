import type { ComponentProps, ReactNode } from "react";

export const INPUT_CLASS =
  "mt-2 block w-full rounded-button border bg-white px-4 py-3 text-ink placeholder:text-gray-400 focus:border-primary";

/**
 * How a field's hint and error message are tied to it (ids `${id}-hint` and `${id}-fout`): the
 * public forms' Field and the admin panel's SettingsField both use it, and so can a control they
 * do not wrap. `describedBy` is what the control already names (kept first).
 */
export function fieldAria(
  id: string,
  { error, hint, describedBy }: { error?: string; hint?: boolean; describedBy?: string },
): { "aria-invalid": boolean; "aria-describedby"?: string } {
  const ids = new Set([
    ...(describedBy?.split(/\s+/) ?? []),
    hint ? `${id}-hint` : "",
    error ? `${id}-fout` : "",
  ]);
  ids.delete("");
  return { "aria-invalid": Boolean(error), "aria-describedby": [...ids].join(" ") || undefined };
}

/** A labelled input or textarea with its error message, wired up for screen readers. */
export function Field({
  id,
  label,
  error,
  hint,
  required,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  children: (props: {
    id: string;
    "aria-invalid": boolean;
    "aria-describedby"?: string;
    required?: boolean;
    "aria-required"?: boolean;
    className: string;
  }) => ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="font-semibold text-ink">
        {label}
        {required && (
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {children({
        id,
        ...fieldAria(id, { error, hint: Boolean(hint) }),
        // Said by screen readers (the red * is hidden from them); the forms keep the browser's
        // own checks off (noValidate), so the Dutch messages are what people read.
        ...(required ? { required: true, "aria-required": true } : {}),
        className: `${INPUT_CLASS} ${error ? "border-red-600" : "border-gray-300"}`,
      })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-fout`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The honeypot: a field named "website" that people never see or hear (off-screen, aria-hidden, out
 * of the tab order, no autofill). Bots that fill every field give themselves away.
 */
export function Honeypot(props: Pick<ComponentProps<"input">, "value" | "onChange" | "id">) {
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={props.id}>Website</label>
      <input
        id={props.id}
        name="website"
        type="text"
        tabIndex={-1}
        autoComplete="off"
        value={props.value}
        onChange={props.onChange}
      />
    </div>
  );
}
