import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from "react";
import { createNoticeStore, type NoticeInput, type NoticeStore } from "./notice-store";

const NoticeContext = createContext<NoticeStore | null>(null);

/** Holds the notice store and renders the visible notice. */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createNoticeStore());
  return (
    <NoticeContext.Provider value={store}>
      {children}
      <NoticeViewport store={store} />
    </NoticeContext.Provider>
  );
}

export function useNotice(): { notify: (input: NoticeInput) => number; dismiss: (id?: number) => void } {
  const store = useContext(NoticeContext);
  if (!store) throw new Error("useNotice must be used inside <NoticeProvider>");
  return { notify: store.show, dismiss: store.dismiss };
}

function NoticeViewport({ store }: { store: NoticeStore }) {
  const notice = useSyncExternalStore(store.subscribe, store.current, () => null);
  const destructive = notice?.variant === "destructive";
  return (
    <div
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-4 sm:inset-x-auto sm:right-0 sm:justify-end"
      aria-live={destructive ? "assertive" : "polite"}
      role={destructive ? "alert" : "status"}
    >
      {notice && (
        <div
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
