import { lazy, type ComponentType } from "react";

export interface LazyPage {
  (): React.JSX.Element;
  /** Loads the page's chunk; once it has resolved the page renders without suspending. */
  preload(): Promise<void>;
}

/**
 * A route component in its own chunk. The pre-renderer and the client entry preload the current
 * route before rendering, so hydration renders the same tree synchronously and never suspends.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let Loaded: ComponentType | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then((module) => {
      Loaded = module.default;
    }));
  const Lazy = lazy(() => preload().then(() => ({ default: Loaded! })));
  const Page = () => (Loaded ? <Loaded /> : <Lazy />);
  Page.preload = preload;
  return Page;
}
