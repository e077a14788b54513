import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { userErrorMessage } from "../../api/client";
import { createNoticeStore, type NoticeInput, type NoticeStore } from "./notice-store";
import { PLACEMENT_CLASSES, placementFor, rememberFocus, type Placement } from "./placement";

const NoticeContext = createContext<NoticeStore | null>(null);

/**
 * Holds the notice store and renders the visible notice. The public pages' islands are React roots
 * of their own: each gets the page's one store (`store`), whose notice one island shows
 * (`viewport={false}` elsewhere).
 */
export function NoticeProvider({
  children,
  store: shared,
  viewport = true,
}: {
  children: ReactNode;
  store?: NoticeStore;
  viewport?: boolean;
}) {
  const [store] = useState(() => shared ?? createNoticeStore());
  return (
    <NoticeContext.Provider value={store}>
      {children}
      {viewport && <NoticeViewport store={store} />}
    </NoticeContext.Provider>
  );
}

export function useNotice(): {
  notify: (input: NoticeInput) => number;
  /** A failure's notice: `title`, and the server's message about `error` (or `fallback`). */
  notifyError: (title: string, error: unknown, fallback: string) => number;
  dismiss: (id?: number) => void;
  clear: () => void;
} {
  const store = useContext(NoticeContext);
  if (!store) throw new Error("useNotice must be used inside <NoticeProvider>");
  const notifyError = (title: string, error: unknown, fallback: string) =>
    store.show({ title, description: userErrorMessage(error, fallback), variant: "destructive" });
  return { notify: store.show, notifyError, dismiss: store.dismiss, clear: store.clear };
}

const RECHECK_MS = 500;

/** Keeps the notice in a corner where it covers no control, re-checked as the page scrolls or changes. */
function usePlacement(noticeId: number | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  const [placement, setPlacement] = useState<Placement>("bottom-right");
  useLayoutEffect(() => {
    if (noticeId === undefined) return;
    let frame = 0;
    const place = () => {
      frame = 0;
      if (ref.current) setPlacement(placementFor(ref.current));
    };
    const soon = () => (frame ||= requestAnimationFrame(place));
    place();
    // Captured: a scroll of any element (a panel that scrolls on its own) moves the controls too.
    document.addEventListener("scroll", soon, { passive: true, capture: true });
    window.addEventListener("resize", soon);
    // The control in use moves with the focus: the notice moves off it.
    window.addEventListener("focusin", soon);
    // The page below changes too (another tab opens, a list loads), and the notice's own size.
    const layout = new ResizeObserver(soon);
    layout.observe(document.body);
    if (ref.current) layout.observe(ref.current);
    // And what no event reports (a row of buttons re-laid out within the same page height): looked
    // at again twice a second while the notice shows, a few dozen boxes each time.
    const every = setInterval(soon, RECHECK_MS);
    return () => {
      clearInterval(every);
      layout.disconnect();
      cancelAnimationFrame(frame);
      document.removeEventListener("scroll", soon, { capture: true });
      window.removeEventListener("resize", soon);
      window.removeEventListener("focusin", soon);
    };
  }, [noticeId]);
  return { ref, placement };
}

export function NoticeViewport({ store }: { store: NoticeStore }) {
  useEffect(() => {
    document.addEventListener("focusin", rememberFocus);
    return () => document.removeEventListener("focusin", rememberFocus);
  }, []);
  const notice = useSyncExternalStore(store.subscribe, store.current, () => null);
  const destructive = notice?.variant === "destructive";
  const { ref, placement } = usePlacement(notice?.id);
  return (
    <div
      className={`pointer-events-none fixed z-[60] flex p-4 max-sm:inset-x-0 max-sm:justify-center ${PLACEMENT_CLASSES[placement]}`}
      aria-live={destructive ? "assertive" : "polite"}
      role={destructive ? "alert" : "status"}
      data-placement={placement}
    >
      {notice && (
        <div
          ref={ref}
          data-testid="notice"
          data-variant={notice.variant}
          className={`pointer-events-auto relative w-full max-w-sm rounded-card border p-4 pr-10 shadow-lg ${
            destructive ? "border-red-700 bg-red-600 text-white" : "border-gray-200 bg-white text-ink"
          }`}
        >
          <p className="font-semibold">{notice.title}</p>
          {notice.description && (
            <p className={`mt-1 text-sm ${destructive ? "text-white" : "text-muted"}`}>
              {notice.description}
            </p>
          )}
          <button
            type="button"
            onClick={() => store.dismiss(notice.id)}
            className="absolute top-2 right-2 rounded p-1 text-lg leading-none opacity-80 hover:opacity-100"
            aria-label="Melding sluiten"
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
