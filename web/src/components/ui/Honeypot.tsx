import type { ComponentProps } from "react";

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
