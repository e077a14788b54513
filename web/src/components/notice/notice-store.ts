// A one-at-a-time notice (toast) store, shared by the public site and the admin panel:
// default and destructive variants, only one visible at a time.

export type NoticeVariant = "default" | "destructive";

export interface Notice {
  id: number;
  title: string;
  description?: string;
  variant: NoticeVariant;
}

export interface NoticeInput {
  title: string;
  description?: string;
  variant?: NoticeVariant;
  /**
   * Something that happened elsewhere (a new lead arrived), not an answer to what the person just
   * did: it never replaces such an answer while it shows, but waits until that one closes.
   */
  live?: boolean;
}

/** How long a notice stays before it closes by itself. */
export const NOTICE_DURATION_MS = 5000;

export interface NoticeStore {
  show(input: NoticeInput): number;
  dismiss(id?: number): void;
  /** Closes the visible notice and drops a waiting live one (a session ended: nothing of it may show). */
  clear(): void;
  current(): Notice | null;
  subscribe(listener: () => void): () => void;
}

export function createNoticeStore(durationMs = NOTICE_DURATION_MS): NoticeStore {
  let notice: Notice | null = null;
  // Whether the visible notice is a live one (kept apart: current() must answer the same object
  // until the notice changes, as React's useSyncExternalStore requires).
  let noticeLive = false;
  // The newest live notice that arrived while an answer showed (older ones are superseded by it).
  let waiting: NoticeInput | null = null;
  let nextId = 1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());

  const show = (input: NoticeInput): number => {
    clearTimeout(timer);
    // A new notice replaces the visible one.
    notice = {
      id: nextId++,
      title: input.title,
      description: input.description,
      variant: input.variant ?? "default",
    };
    noticeLive = input.live ?? false;
    const id = notice.id;
    if (durationMs > 0) timer = setTimeout(() => dismiss(id), durationMs);
    emit();
    return id;
  };

  const dismiss = (id?: number) => {
    if (notice === null || (id !== undefined && notice.id !== id)) return;
    clearTimeout(timer);
    notice = null;
    const next = waiting;
    waiting = null;
    if (next) show(next);
    else emit();
  };

  return {
    show(input) {
      if (input.live && notice && !noticeLive) {
        waiting = input;
        return 0;
      }
      return show(input);
    },
    dismiss,
    clear() {
      waiting = null;
      dismiss();
    },
    current: () => notice,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
