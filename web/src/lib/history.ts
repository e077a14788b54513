// One notification for every history change: back/forward (popstate) and pushState/replaceState,
// which browsers do not announce, so both are wrapped once.

const CHANGE_EVENT = "lease:historychange";
let patched = false;

function patchHistory(): void {
  if (patched) return;
  patched = true;
  for (const method of ["pushState", "replaceState"] as const) {
    const original = window.history[method];
    window.history[method] = function (this: History, ...args: Parameters<History["pushState"]>) {
      const result = original.apply(this, args);
      window.dispatchEvent(new Event(CHANGE_EVENT));
      return result;
    };
  }
}

/** Calls listener after every history change; returns the unsubscribe function. */
export function onHistoryChange(listener: () => void): () => void {
  patchHistory();
  window.addEventListener("popstate", listener);
  window.addEventListener(CHANGE_EVENT, listener);
  return () => {
    window.removeEventListener("popstate", listener);
    window.removeEventListener(CHANGE_EVENT, listener);
  };
}
