import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startLiveConnection } from "./live-connection";

/** A stand-in for the browser's WebSocket: the test opens, closes and sends on it by hand. */
class FakeSocket {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  closed = false;
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.({} as Event);
  }
  drop() {
    this.onclose?.({} as CloseEvent);
  }
  send(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) } as MessageEvent);
  }
}

const update = {
  type: "visitor-update",
  data: {
    stats: { currentActive: 1, todayTotal: 2, thisWeekTotal: 3, topPages: [{ page: "/", views: 2 }] },
    activeVisitors: [
      {
        id: "s1",
        page: "/",
        userAgent: "Chrome",
        city: "",
        country: "",
        ipAddress: "",
        anonymous: false,
        lastSeen: "2024-01-01T00:00:00.000Z",
      },
    ],
  },
};

describe("live visitor connection", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start(createSocket: (url: string) => FakeSocket) {
    const states: boolean[] = [];
    const updates: unknown[] = [];
    const stop = startLiveConnection({
      url: "ws://host/ws",
      createSocket,
      onConnected: (connected) => states.push(connected),
      onUpdate: (data) => updates.push(data),
      log: () => undefined,
    });
    return { states, updates, stop };
  }

  it("reports connected, passes pushed updates on and ignores unknown messages", () => {
    const socket = new FakeSocket();
    const { states, updates } = start(() => socket);
    socket.open();
    socket.send(update);
    socket.send({ type: "something-else" });
    expect(states).toEqual([true]);
    expect(updates).toEqual([update.data]);
  });

  it("reconnects 3 s after the connection is lost", () => {
    const sockets: FakeSocket[] = [];
    const { states } = start(() => {
      sockets.push(new FakeSocket());
      return sockets.at(-1)!;
    });
    sockets[0]!.open();
    sockets[0]!.drop();
    expect(states).toEqual([true, false]);
    vi.advanceTimersByTime(2999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
  });

  it("retries after 5 s when opening the socket throws", () => {
    let attempts = 0;
    start(() => {
      attempts++;
      if (attempts === 1) throw new Error("SecurityError");
      return new FakeSocket();
    });
    vi.advanceTimersByTime(4999);
    expect(attempts).toBe(1);
    vi.advanceTimersByTime(1);
    expect(attempts).toBe(2);
  });

  it("stops for good: closes the socket and never reconnects", () => {
    const sockets: FakeSocket[] = [];
    const { stop } = start(() => {
      sockets.push(new FakeSocket());
      return sockets.at(-1)!;
    });
    stop();
    expect(sockets[0]!.closed).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
  });
});

describe("lead-created on the admin socket", () => {
  it("hands each new lead to onLeadCreated and nothing else to it", () => {
    const socket = new FakeSocket();
    const leads: unknown[] = [];
    const stop = startLiveConnection({
      url: "ws://host/ws",
      createSocket: () => socket,
      onConnected: () => undefined,
      onLeadCreated: (data) => leads.push(data),
      log: () => undefined,
    });
    socket.open();
    const lead = {
      source: "lease_request",
      id: "0b0e4f3e-8a51-4b8e-9f43-1f5c2d0e8a11",
      at: "2026-11-26T10:00:00.000Z",
    };
    socket.send(update);
    socket.send({ type: "lead-created", data: lead });
    socket.send({ type: "lead-created", data: { ...lead, source: "telefoon" } });
    const owner = { id: "5d1f2c3b-7a6e-4f1d-9c2b-8e7a6d5c4b3a", username: "sanne" };
    socket.send({ type: "lead-created", data: { ...lead, owner } });
    // A relay from before owners existed sends no owner: the panel reads it as nobody's.
    expect(leads).toEqual([
      { ...lead, owner: null },
      { ...lead, owner },
    ]);
    stop();
  });
});

describe("lead-attributed on the admin socket", () => {
  it("hands a lead whose Herkomst was decided to onLeadAttributed, not to onLeadCreated", () => {
    const socket = new FakeSocket();
    const attributed: unknown[] = [];
    const created: unknown[] = [];
    const stop = startLiveConnection({
      url: "ws://host/ws",
      createSocket: () => socket,
      onConnected: () => undefined,
      onLeadCreated: (data) => created.push(data),
      onLeadAttributed: (data) => attributed.push(data),
      log: () => undefined,
    });
    socket.open();
    const event = {
      source: "lease_request",
      id: "7d3f6b1e-2a4c-4e8f-9b0a-1c2d3e4f5a6b",
      found: true,
      at: "2026-11-28T08:00:00.000Z",
    };
    socket.send({ type: "lead-attributed", data: event });
    socket.send({ type: "lead-attributed", data: { ...event, found: "ja" } });
    expect(attributed).toEqual([event]);
    expect(created).toEqual([]);
    stop();
  });

  it("a session ended (4401): reconnects at once when still signed in, else stops instead of looping", async () => {
    vi.useFakeTimers();
    for (const signedIn of [true, false]) {
      const sockets: FakeSocket[] = [];
      let checks = 0;
      const stop = startLiveConnection({
        url: "ws://host/ws",
        createSocket: () => {
          const socket = new FakeSocket();
          sockets.push(socket);
          return socket as unknown as WebSocket;
        },
        onConnected: () => undefined,
        onSessionEnded: async () => {
          checks++;
          return signedIn;
        },
        log: () => undefined,
      });
      sockets[0]!.open();
      sockets[0]!.onclose?.({ code: 4401 } as CloseEvent);
      await vi.advanceTimersByTimeAsync(0);
      expect(checks).toBe(1);
      expect(sockets).toHaveLength(signedIn ? 2 : 1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sockets).toHaveLength(signedIn ? 2 : 1);
      stop();
    }
    vi.useRealTimers();
  });
});
