import { afterEach, describe, expect, it, vi } from "vitest";
import { createSessionId, formSession, getSessionId, SESSION_STORAGE_KEY } from "./tracking";

describe("the session id a form sends along", () => {
  const storage = (value: string | null) => ({ getItem: () => value });

  it("is the stored id, with analytics consent only", () => {
    expect(formSession(storage("session-abc123-1700000000000"), true)).toEqual({
      sessionId: "session-abc123-1700000000000",
    });
    expect(formSession(storage("session-abc123-1700000000000"), false)).toEqual({});
  });

  it("is left out when none is stored, it is malformed or storage throws", () => {
    expect(formSession(storage(null), true)).toEqual({});
    expect(formSession(storage("anything else"), true)).toEqual({});
    const broken = {
      getItem: (): string | null => {
        throw new Error("blocked");
      },
    };
    expect(formSession(broken, true)).toEqual({});
  });
});

describe("visitor session id", () => {
  it('has the form "session-" + base36 + "-" + timestamp', () => {
    expect(
      createSessionId(
        () => 0.123456789,
        () => 1_700_000_000_000,
      ),
    ).toMatch(/^session-[a-z0-9]+-1700000000000$/);
    expect(createSessionId()).toMatch(/^session-[A-Za-z0-9]+-\d{10,16}$/);
  });

  it('is kept in local storage under "visitor-session"', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const first = getSessionId(storage);
    expect(store.get(SESSION_STORAGE_KEY)).toBe(first);
    expect(getSessionId(storage)).toBe(first);
    expect(SESSION_STORAGE_KEY).toBe("visitor-session");
  });

  it("still gives an id when storage throws", () => {
    const broken = {
      getItem: () => {
        throw new Error("blocked");
      },
      setItem: () => undefined,
    };
    expect(getSessionId(broken)).toMatch(/^session-/);
  });
});

describe("startTracking", () => {
  // A small browser stand-in: Node's EventTarget as window, a history that moves location.
  function fakeBrowser(cookie = "cookie_consent=v1.a1.m0") {
    const posts: { url: string; body: Record<string, unknown> }[] = [];
    const store = new Map<string, string>();
    const target = new EventTarget();
    const location = { pathname: "/", search: "", protocol: "http:" };
    const move = (_state: unknown, _title: string, url?: string | URL | null) => {
      const next = new URL(String(url ?? "/"), "http://site.test");
      location.pathname = next.pathname;
      location.search = next.search;
    };
    const win = Object.assign(target, {
      location,
      history: { pushState: move, replaceState: move },
      localStorage: {
        getItem: (key: string) => store.get(key) ?? null,
        setItem: (key: string, value: string) => void store.set(key, value),
        removeItem: (key: string) => void store.delete(key),
      },
      setInterval,
      clearInterval,
    });
    vi.stubGlobal("window", win);
    vi.stubGlobal("document", { referrer: "", cookie });
    vi.stubGlobal("fetch", (url: string, init: { body: string }) => {
      posts.push({ url, body: JSON.parse(init.body) as Record<string, unknown> });
      return Promise.resolve(new Response(null, { status: 204 }));
    });
    return { posts, win, store };
  }

  afterEach(() => vi.unstubAllGlobals());

  it("counts a page once even when the tracker is started twice or restarted on the same page", async () => {
    vi.resetModules();
    const { posts, win } = fakeBrowser();
    const { startTracking } = await import("./tracking");
    const stopFirst = startTracking();
    const stopSecond = startTracking(); // e.g. a component mounted twice
    expect(posts.map((p) => p.body.page)).toEqual(["/"]);
    stopFirst();
    stopSecond();
    startTracking(); // a remount on the same page
    expect(posts.map((p) => p.body.page)).toEqual(["/"]);

    win.history.pushState(null, "", "/over-ons");
    expect(posts.map((p) => p.body.page)).toEqual(["/", "/over-ons"]);
    expect(posts.every((p) => p.url === "/api/track/visit")).toBe(true);
    expect(new Set(posts.map((p) => p.body.sessionId)).size).toBe(1);
  });

  it("stops listening once every caller has stopped", async () => {
    vi.resetModules();
    const { posts, win } = fakeBrowser();
    const { startTracking } = await import("./tracking");
    const stopA = startTracking();
    const stopB = startTracking();
    stopA();
    stopA(); // a second call changes nothing
    win.history.pushState(null, "", "/voorwaarden");
    expect(posts.map((p) => p.body.page)).toEqual(["/", "/voorwaarden"]);
    stopB();
    win.history.pushState(null, "", "/cookie-beleid");
    expect(posts.map((p) => p.body.page)).toEqual(["/", "/voorwaarden"]);
  });

  it("without analytics consent keeps nothing on the device and sends no id, yet counts the visit", async () => {
    vi.useFakeTimers();
    try {
      vi.resetModules();
      for (const cookie of ["", "cookie_consent=v1.a0.m0", "cookie_consent=v1.a0.m1"]) {
        const { posts, win, store } = fakeBrowser(cookie);
        store.set(SESSION_STORAGE_KEY, "session-fromearlier-1700000000000");
        const { startTracking } = await import("./tracking");
        const stop = startTracking();
        win.history.pushState(null, "", "/over-ons");
        vi.advanceTimersByTime(30_000);
        stop();
        expect(posts, cookie).toEqual([
          { url: "/api/track/visit", body: { page: "/", referrer: "" } },
          { url: "/api/track/visit", body: { page: "/over-ons", referrer: "" } },
          { url: "/api/track/heartbeat", body: {} },
        ]);
        expect([...store.keys()], cookie).toEqual([]);
        vi.resetModules();
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows a change of the choice at once: an id after consent, none (and none kept) after withdrawal", async () => {
    vi.useFakeTimers();
    try {
      vi.resetModules();
      const { posts, win, store } = fakeBrowser("");
      const { startTracking } = await import("./tracking");
      const { saveConsent } = await import("./consent-store");
      startTracking();
      saveConsent({ analytics: true, marketing: false });
      const id = store.get(SESSION_STORAGE_KEY);
      expect(id).toMatch(/^session-/);
      vi.advanceTimersByTime(30_000);
      win.history.pushState(null, "", "/voorwaarden");
      saveConsent({ analytics: false, marketing: false });
      expect([...store.keys()]).toEqual([]);
      vi.advanceTimersByTime(30_000);
      expect(posts.map((p) => p.body)).toEqual([
        { page: "/", referrer: "" },
        { sessionId: id, page: "/", referrer: "", consented: true },
        { sessionId: id },
        { sessionId: id, page: "/voorwaarden", referrer: "" },
        {},
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends the landing page with its campaign again, marked, when consent comes after it (once)", async () => {
    vi.resetModules();
    const { posts, win, store } = fakeBrowser("");
    win.location.search = "?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X";
    win.location.pathname = "/financiele-lease";
    vi.stubGlobal("document", { referrer: "https://www.google.com/", cookie: "" });
    const { startTracking } = await import("./tracking");
    const { saveConsent } = await import("./consent-store");
    startTracking();
    // The visitor moves on before choosing: the campaign is still the visit's.
    win.history.pushState(null, "", "/over-ons");
    saveConsent({ analytics: true, marketing: true });
    const id = store.get(SESSION_STORAGE_KEY);
    saveConsent({ analytics: true, marketing: false }); // a second save with analytics: nothing again
    win.history.pushState(null, "", "/");
    const landing = "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X";
    expect(posts.map((p) => p.body)).toEqual([
      { page: landing, referrer: "https://www.google.com/" },
      { page: "/over-ons", referrer: "https://www.google.com/" },
      { sessionId: id, page: landing, referrer: "https://www.google.com/", consented: true },
      { sessionId: id, page: "/", referrer: "https://www.google.com/" },
    ]);
  });

  it("sends nothing again when consent was there before the first page", async () => {
    vi.resetModules();
    const { posts, store } = fakeBrowser();
    const { startTracking } = await import("./tracking");
    const { saveConsent } = await import("./consent-store");
    startTracking();
    saveConsent({ analytics: true, marketing: true });
    const id = store.get(SESSION_STORAGE_KEY);
    expect(posts.map((p) => p.body)).toEqual([{ sessionId: id, page: "/", referrer: "" }]);
  });
});
