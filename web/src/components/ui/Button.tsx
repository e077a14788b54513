import type { ComponentProps } from "react";

/** primary/accent serve both looks; outline/light are the public pages', secondary/danger the panel's. */
export type ButtonVariant = "primary" | "accent" | "outline" | "light" | "secondary" | "danger";

/** `large`: the public pages' call to action; `small`: the admin panel's controls. */
export type ButtonSize = "large" | "small";

const BUTTON_BASE =
  "inline-flex items-center justify-center gap-2 rounded-button font-semibold transition-colors disabled:cursor-not-allowed";

const SIZES: Record<ButtonSize, string> = {
  large: "px-6 py-3 text-base disabled:opacity-60",
  small: "px-4 py-2 text-sm disabled:opacity-50",
};

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-primary-strong text-white hover:bg-primary-hover-strong",
  accent: "bg-accent-strong text-white hover:brightness-95",
  outline: "border-2 border-primary text-primary-strong hover:bg-primary-strong hover:text-white",
  light: "border-2 border-white text-white hover:bg-white hover:text-ink",
  secondary: "border border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
  danger: "bg-red-600 text-white hover:bg-red-700",
};

/** The classes of a button, or of a link that looks like one. */
export function buttonClass(
  variant: ButtonVariant = "primary",
  extra = "",
  size: ButtonSize = "large",
): string {
  return `${BUTTON_BASE} ${SIZES[size]} ${VARIANTS[variant]} ${extra}`.trim();
}

/** A button (type "button" unless told); the panel's size unless `size` says otherwise. */
export function Button({
  variant = "primary",
  size = "small",
  className = "",
  type = "button",
  ...rest
}: ComponentProps<"button"> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={buttonClass(variant, className, size)} {...rest} />;
}
