import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createNoticeStore } from "./notice-store";

describe("notice store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows one notice at a time; a new one replaces the old", () => {
    const store = createNoticeStore();
    store.show({ title: "Eerste" });
    store.show({ title: "Fout bij Versturen", variant: "destructive" });
    expect(store.current()).toMatchObject({ title: "Fout bij Versturen", variant: "destructive" });
  });

  it("defaults to the default variant and closes by itself", () => {
    const store = createNoticeStore(1000);
    const listener = vi.fn();
    store.subscribe(listener);
    store.show({ title: "Aanvraag Succesvol Verzonden!" });
    expect(store.current()?.variant).toBe("default");
    vi.advanceTimersByTime(1000);
    expect(store.current()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("ignores dismissing a notice that was already replaced", () => {
    const store = createNoticeStore(0);
    const first = store.show({ title: "A" });
    store.show({ title: "B" });
    store.dismiss(first);
    expect(store.current()?.title).toBe("B");
    store.dismiss();
    expect(store.current()).toBeNull();
  });

  it("clear closes the notice and drops a live one waiting behind it", () => {
    const store = createNoticeStore(5000);
    store.show({ title: "Succesvol ingelogd" });
    store.show({ title: "Nieuwe Aanvraag voor jou", live: true });
    store.clear();
    expect(store.current()).toBeNull();
    vi.advanceTimersByTime(10_000);
    expect(store.current(), "the waiting one never shows").toBeNull();
  });

  it("a live notice never replaces the answer to what the person did: it shows after it closes", () => {
    const store = createNoticeStore(5000);
    store.show({ title: "Tweestapsverificatie staat aan" });
    vi.advanceTimersByTime(500);
    store.show({ title: "Nieuwe Aanvraag", live: true });
    store.show({ title: "Nieuw Bericht", live: true });
    expect(store.current()?.title).toBe("Tweestapsverificatie staat aan");
    vi.advanceTimersByTime(4500);
    expect(store.current()?.title).toBe("Nieuw Bericht");
    // A live notice is replaced by the next one, and by an answer, as before.
    store.show({ title: "Nieuwe Aanvraag", live: true });
    expect(store.current()?.title).toBe("Nieuwe Aanvraag");
    store.show({ title: "Opgeslagen" });
    expect(store.current()?.title).toBe("Opgeslagen");
  });
});
