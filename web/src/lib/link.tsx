import type { ComponentProps } from "react";

/**
 * A link to a page of the site. A plain anchor: the public pages' link handling (site-links.ts)
 * follows it without a page load, also where the component around it is never hydrated.
 */
export function Link({ to, ...props }: Omit<ComponentProps<"a">, "href"> & { to: string }) {
  return <a href={to} {...props} />;
}
