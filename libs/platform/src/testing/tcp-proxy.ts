import net from "node:net";

/**
 * A TCP pass-through that a test can cut (refuse new and drop open connections) and restore, or
 * whose replies it can swallow before dropping the connections.
 */
export async function startTcpProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<net.Socket>();
  let open = true;
  let swallowing = false;
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream);
    upstream.on("data", (d: Buffer) => {
      if (swallowing || client.write(d)) return;
      upstream.pause();
      client.once("drain", () => upstream.resume());
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    /** Postgres "goes away": open connections drop, new ones are closed at once. */
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    /** The target's replies are dropped (requests still reach it): a server that dies mid-answer. */
    swallowReplies() {
      swallowing = true;
    },
    /** Open connections drop and new ones pass again: what clients see of a server restart. */
    dropConnections() {
      swallowing = false;
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
