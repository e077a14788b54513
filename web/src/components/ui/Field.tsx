import { cloneElement, isValidElement, type ComponentProps, type ReactNode } from "react";
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

/**
 * A field's error message under its control, with the id (`${id}-fout`) that fieldAria ties to
 * the control, announced when it appears (role=alert) unless `announce` is false. `className`
 * places it (default: just under the control).
 */
export function FieldError({
  id,
  error,
  className = "mt-1",
  announce = true,
  testId,
}: {
  id: string;
  error?: string;
  className?: string;
  announce?: boolean;
  testId?: string;
}) {
  if (!error) return null;
  return (
    <p
      id={`${id}-fout`}
      className={`${className} text-sm font-medium text-red-700`}
      {...(announce ? { role: "alert" } : {})}
      {...(testId ? { "data-testid": testId } : {})}
    >
      {error}
    </p>
  );
}

/** What a Field hands the control it renders. */
export type FieldControlProps = ReturnType<typeof fieldAria> & FieldControlExtras;
type FieldControlExtras = { id: string; className: string; required?: boolean; "aria-required"?: boolean };

/** A field: its control's id, its label, hint and error, and whether it is required. */
type FieldProps = { id: string; label: string; error?: string; hint?: ReactNode; required?: boolean };

/** The label's and the hint's classes in each look. */
const LOOK_TEXT: Record<InputLook, { label: string; hint: string }> = {
  site: { label: "font-semibold text-ink", hint: "mt-1 text-sm text-muted" },
  admin: { label: "text-sm font-semibold text-gray-800", hint: "mt-1 text-xs text-gray-600" },
};

/**
 * A labelled control with its hint and error message underneath, tied to it for screen readers.
 * The control is either a function of the props it needs (id, aria-*, the look's input classes),
 * or an element whose id is the field's (it gets aria-invalid and aria-describedby); a control
 * inside a wrapper spreads fieldAria() itself. In the panel's look (`admin`) the message is
 * announced when it appears (role=alert).
 */
export function Field({
  look = "site",
  children,
  ...field
}: FieldProps & { look?: InputLook; children: ReactNode | ((props: FieldControlProps) => ReactNode) }) {
  const { id, label, error, hint, required } = field;
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
      <label htmlFor={id} className={LOOK_TEXT[look].label}>
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
        <Hint id={`${id}-hint`} className={LOOK_TEXT[look].hint}>
          {hint}
        </Hint>
      )}
      <FieldError
        id={id}
        error={error}
        announce={look === "admin"}
        testId={look === "admin" ? "field-error" : undefined}
      />
    </div>
  );
}

/** What a TextField passes on to its input (all but what the field itself sets). */
type TextInputProps = Omit<ComponentProps<"input">, "id" | "value" | "onChange" | "className" | "children">;

/**
 * A labelled text (or password, or code) input in the panel's look unless `look` says otherwise:
 * a Field whose control is an input holding `value`, handing each change to `onChange` as text.
 */
export function TextField({
  look = "admin",
  value,
  onChange,
  ...props
}: FieldProps & { look?: InputLook; value: string; onChange: (value: string) => void } & TextInputProps) {
  const { id, label, error, hint, required, ...input } = props;
  return (
    <Field look={look} id={id} label={label} error={error} hint={hint} required={required}>
      {(control) => (
        <input {...input} {...control} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </Field>
  );
}
