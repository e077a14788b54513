import type { ComponentProps } from "react";
import { inputClass } from "./Input";

/** One choice of a Select: the value it stands for and what it says. */
export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

/**
 * A select in the panel's look (`className` adds to it) offering `options`, each change handed to
 * `onChange` as the chosen option's value. Choices of its own (an "all" or "none" first) are its
 * children, listed before the options.
 */
export function Select<V extends string>({
  options,
  onChange,
  className,
  children,
  ...rest
}: Omit<ComponentProps<"select">, "onChange"> & {
  options: readonly SelectOption<V>[];
  onChange: (value: V) => void;
}) {
  return (
    <select
      className={className ? `${inputClass("admin")} ${className}` : inputClass("admin")}
      {...rest}
      onChange={(event) => onChange(event.target.value as V)}
    >
      {children}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
