import { cloneElement, isValidElement, type ReactNode } from "react";
import { inputClass, type InputLook } from "./Input";

/**
 * How a field's hint and error message are tied to its control (ids `${id}-hint` and `${id}-fout`):
 * Field uses it, and so can a control it does not wrap. `describedBy` is what the control already
 * names (kept first).
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

/** What a Field hands the control it renders. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby"?: string;
  required?: boolean;
  "aria-required"?: boolean;
  className: string;
}

const LABEL: Record<InputLook, string> = {
  site: "font-semibold text-ink",
  admin: "text-sm font-semibold text-gray-800",
};

const HINT: Record<InputLook, string> = {
  site: "mt-1 text-sm text-muted",
  admin: "mt-1 text-xs text-gray-600",
};

/**
 * A labelled control with its hint and error message underneath, tied to it for screen readers.
 * The control is either a function of the props it needs (id, aria-*, the look's input classes),
 * or an element whose id is the field's (it gets aria-invalid and aria-describedby); a control
 * inside a wrapper spreads fieldAria() itself. In the panel's look (`admin`) the message is
 * announced when it appears (role=alert).
 */
export function Field({
  id,
  label,
  error,
  hint,
  required,
  look = "site",
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  look?: InputLook;
  children: ReactNode | ((props: FieldControlProps) => ReactNode);
}) {
  const aria = (describedBy?: string) => fieldAria(id, { error, hint: Boolean(hint), describedBy });
  const control =
    typeof children === "function"
      ? children({
          id,
          ...aria(),
          // Said by screen readers (the red * is hidden from them); the forms keep the browser's
          // own checks off (noValidate), so the Dutch messages are what people read.
          ...(required ? { required: true, "aria-required": true } : {}),
          className: inputClass(look, { error: Boolean(error) }),
        })
      : isValidElement<{ id?: string; "aria-describedby"?: string }>(children) && children.props.id === id
        ? cloneElement(children, aria(children.props["aria-describedby"]))
        : children;
  const Hint = look === "admin" ? "div" : "p";
  return (
    <div>
      <label htmlFor={id} className={LABEL[look]}>
        {label}
        {required && (
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {control}
      {hint && (
        <Hint id={`${id}-hint`} className={HINT[look]}>
          {hint}
        </Hint>
      )}
      {error && (
        <p
          id={`${id}-fout`}
          className="mt-1 text-sm font-medium text-red-700"
          {...(look === "admin" ? { role: "alert", "data-testid": "field-error" } : {})}
        >
          {error}
        </p>
      )}
    </div>
  );
}
