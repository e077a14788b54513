import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/**
 * False in the pre-rendered HTML and during hydration, true once React runs in the browser. Forms keep
 * their submit button disabled until then, so a submit before the scripts load can never fall back to
 * a native GET that would put the visitor's details in the URL.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
