import type { ComponentType } from "react";

// An island: a part of a pre-rendered public page that runs in the browser (it is interactive, or it
// shows the company's settings). Each is a file in src/islands/ whose default export is the component;
// the browser loads and hydrates only these (hydrate.tsx), each as a React root of its own. The rest
// of the page is pre-rendered HTML that React never runs, and its code is not in the scripts. The
// build preloads the islands a page holds (scripts/build.mjs).

const ISLANDS = import.meta.glob<{ default: ComponentType }>("../islands/*.tsx", { eager: true });

/** The element hydrate.tsx finds an island by: its name (the file's) in data-island. */
export const ISLAND_ATTRIBUTE = "data-island";

/**
 * Renders the island `name` (src/islands/<name>.tsx) inside the element it is hydrated in:
 * `display: contents`, so that it adds no box to the layout; `inline` for one inside a sentence.
 */
export function Island({ name, inline = false }: { name: string; inline?: boolean }) {
  const Component = ISLANDS[`../islands/${name}.tsx`]?.default;
  if (!Component) throw new Error(`no island "${name}" in src/islands/`);
  const Tag = inline ? "span" : "div";
  return (
    <Tag data-island={name} className="contents">
      <Component />
    </Tag>
  );
}
