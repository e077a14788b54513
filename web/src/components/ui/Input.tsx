import type { ComponentProps } from "react";

/** `site`: the public forms' roomy inputs; `admin`: the panel's compact ones. */
export type InputLook = "site" | "admin";

const LOOKS: Record<InputLook, string> = {
  site: "mt-2 block w-full rounded-button border bg-white px-4 py-3 text-ink placeholder:text-gray-400 focus:border-primary",
  admin:
    "mt-1 block w-full rounded-button border border-gray-300 bg-white px-3 py-2 text-gray-900 read-only:bg-gray-50 disabled:bg-gray-100 focus:border-primary",
};

/**
 * The classes of an input, select or textarea. A public input's border turns red with an error;
 * the panel marks an error by the message under the field.
 */
export function inputClass(look: InputLook, { error = false }: { error?: boolean } = {}): string {
  if (look === "admin") return LOOKS.admin;
  return `${LOOKS.site} ${error ? "border-red-600" : "border-gray-300"}`;
}

/** An input in the panel's look; `className` adds to it. */
export function Input({ className, ...rest }: ComponentProps<"input">) {
  return (
    <input className={className ? `${inputClass("admin")} ${className}` : inputClass("admin")} {...rest} />
  );
}
