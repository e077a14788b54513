import { StrictMode, type ComponentType } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { NoticeProvider } from "../components/notice";
import { siteNotices } from "./notices";

// The browser side of the islands (Island.tsx): each island's code is a chunk of its own, loaded
// only by a page that holds it (and preloaded there). An island is hydrated against its pre-rendered
// HTML as a React root of its own, one after another in document order, each in a task of its own,
// so no single long task hydrates a whole page. They share the page's stores (settings, consent,
// notices) through modules, not through React context, but for the notice store.

const LOADERS = import.meta.glob<{ default: ComponentType }>("../islands/*.tsx");
const roots = new Map<Element, Root>();

function loaderOf(name: string) {
  return LOADERS[`../islands/${name}.tsx`];
}

/** Lets the browser handle input and paint between two islands. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Hydrates the islands under `scope` that do not run yet. */
export async function hydrateIslands(scope: ParentNode): Promise<void> {
  const found = [...scope.querySelectorAll<HTMLElement>("[data-island]")].filter((el) => !roots.has(el));
  // All chunks requested at once (the build preloads them anyway), hydrated in order.
  const loading = found.map((el) => {
    const load = loaderOf(el.dataset.island ?? "");
    if (!load) console.error(`hydration: no island "${el.dataset.island}"`);
    return load?.().then((module) => module.default);
  });
  for (const [index, el] of found.entries()) {
    const Component = await loading[index]?.catch((error: unknown) => {
      console.error(`hydration: island "${el.dataset.island}" did not load`, error);
      return undefined;
    });
    if (!Component || !el.isConnected || roots.has(el)) continue;
    const name = el.dataset.island;
    roots.set(
      el,
      hydrateRoot(
        el,
        <StrictMode>
          <NoticeProvider store={siteNotices} viewport={false}>
            <Component />
          </NoticeProvider>
        </StrictMode>,
        {
          // A mismatch with the pre-rendered HTML is a bug (React then renders the island anew):
          // said in the console, where the browser tests look for it.
          onRecoverableError: (error) => console.error(`hydration mismatch in island "${name}"`, error),
        },
      ),
    );
    await nextTask();
  }
}

/** Unmounts the islands under `scope` (its content is about to be replaced). */
export function unmountIslands(scope: Element): void {
  for (const [el, root] of roots) {
    if (scope.contains(el)) {
      root.unmount();
      roots.delete(el);
    }
  }
}
