import { useLayoutEffect } from "react";

/**
 * What a visitor typed, or the browser autofilled, into a pre-rendered form before React took it
 * over. Hydration sets every controlled field back to its state, which starts empty, so without
 * this the early text would vanish before the visitor's eyes. entry-site.tsx starts watching before
 * the islands hydrate; each form adopts its own fields once it has hydrated, after which they are its own.
 */
const early = new Map<string, string>();
const owned = new Set<string>();

type FieldElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function isField(el: EventTarget | null): el is FieldElement {
  return (
    el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
  );
}

/** The field's value when it differs from what the page was rendered with, else undefined. */
function changedValue(el: FieldElement): string | undefined {
  if (el instanceof HTMLSelectElement) {
    const selected = el.options[el.selectedIndex];
    return selected && !selected.defaultSelected ? el.value : undefined;
  }
  if (el instanceof HTMLInputElement && el.type === "checkbox")
    return el.checked !== el.defaultChecked ? String(el.checked) : undefined;
  if (el instanceof HTMLInputElement && el.type === "radio") return undefined;
  return el.value !== el.defaultValue ? el.value : undefined;
}

function record(el: FieldElement): void {
  if (!el.id || owned.has(el.id)) return;
  const value = changedValue(el);
  if (value === undefined) early.delete(el.id);
  else early.set(el.id, value);
}

/** Records early input under `root`: what is there now, and what is typed until each form hydrates. */
export function watchEarlyInput(root: HTMLElement): void {
  root.querySelectorAll("input[id], textarea[id], select[id]").forEach((el) => record(el as FieldElement));
  const onInput = (event: Event) => {
    if (isField(event.target)) record(event.target);
  };
  root.addEventListener("input", onInput, true);
  root.addEventListener("change", onInput, true);
}

/**
 * Hands a form what was typed into its fields (by element id) before it hydrated, once: from then
 * on the fields belong to the form, so a later remount (a new, empty request) adopts nothing.
 */
export function adoptEarlyInput<K extends string>(ids: Record<K, string>): Partial<Record<K, string>> {
  const found: Partial<Record<K, string>> = {};
  for (const [key, id] of Object.entries(ids) as [K, string][]) {
    owned.add(id);
    const value = early.get(id);
    early.delete(id);
    if (value !== undefined) found[key] = value;
  }
  return found;
}

/** Adopts the early input of a form's fields right after it hydrates, before the browser paints. */
export function useEarlyInput<K extends string>(
  ids: Record<K, string>,
  apply: (values: Partial<Record<K, string>>) => void,
): void {
  useLayoutEffect(() => {
    const found = adoptEarlyInput(ids);
    if (Object.keys(found).length > 0) apply(found);
    // Once, on mount: the ids are constants of the form.
  }, []);
}
