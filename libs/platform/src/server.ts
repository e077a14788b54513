import http from "node:http";
import net, { type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { FastPath, ServiceApp } from "./app";
import type { Logger } from "./logger";

export interface RunningServer {
  server: http.Server;
  port: number;
  url: string;
  /** Stops accepting, lets in-flight requests finish until the deadline, then cuts the rest. */
  close(deadlineMs: number): Promise<void>;
}

export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * How long, once shutdown began, a connection without a request in progress is left open: one the
 * kernel accepted whose request is not yet read (a busy host), or a keep-alive one whose client is
 * sending its next request right now, still gets it answered (with Connection: close).
 */
export const IDLE_CONNECTION_GRACE_MS = 250;

export async function startHttpServer(
  serviceApp: ServiceApp,
  opts: {
    host: string;
    port: number;
    logger: Logger;
    onUpgrade?: UpgradeHandler;
    headersTimeoutMs?: number;
    fastPath?: FastPath;
  },
): Promise<RunningServer> {
  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  const koa = serviceApp.app.callback();
  const { fastPath } = opts;
  const handler: http.RequestListener = fastPath
    ? (req, res) => fastPath(req, res, () => void koa(req, res))
    : koa;
  // What shutdown waits for, counted here rather than in the app: a request is in flight from its
  // headers until its answer is written out ('close' of the response; Koa's own count ends before
  // Koa writes the body), and each connection is known (an upgraded one is closed last).
  const answering = new Set<http.ServerResponse>();
  const connections = new Map<Socket, { upgraded: boolean }>();
  let closing = false;
  // Node only checks header/request timeouts on this interval (30 s by default): check often enough.
  const server = http.createServer(
    { connectionsCheckingInterval: Math.min(5000, Math.max(250, headersTimeout / 4)) },
    (req, res) => {
      answering.add(res);
      // While shutting down every answer closes its connection, so no client sends another on it.
      if (closing) res.setHeader("Connection", "close");
      res.once("close", () => answering.delete(res));
      handler(req, res);
    },
  );
  let accepted = 0;
  server.on("connection", (socket: Socket) => {
    accepted++;
    connections.set(socket, { upgraded: false });
    socket.once("close", () => connections.delete(socket));
  });
  // Slow clients must not pin sockets: headers within 10 s, a whole request within 30 s.
  server.headersTimeout = headersTimeout;
  server.requestTimeout = Math.max(30_000, server.headersTimeout);
  // Longer than the gateway's pooled keep-alive, so the pool closes first and never races us.
  server.keepAliveTimeout = 65_000;
  // Only with a handler: without an "upgrade" listener Node answers an Upgrade request as a plain one.
  const { onUpgrade } = opts;
  if (onUpgrade)
    server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const connection = connections.get(req.socket);
      if (connection) connection.upgraded = true;
      onUpgrade(req, socket, head);
    });
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });
  const { port, url } = await listen(server, opts.port, opts.host);
  return {
    server,
    port,
    url,
    /**
     * Every request the server received is answered before it closes (until the deadline): the
     * listener closes once the connections already in the kernel's backlog are taken (not reset),
     * answers say Connection: close, and a connection without a request begun is closed only
     * after IDLE_CONNECTION_GRACE_MS (http.Server#close would close it at once, cutting a request
     * that arrived but was not read yet). Upgraded sockets
     * (WebSockets) are closed last; their clients reconnect to another replica.
     */
    async close(deadlineMs) {
      closing = true;
      const started = Date.now();
      const deadline = started + deadlineMs;
      const graceEnds = started + Math.min(IDLE_CONNECTION_GRACE_MS, deadlineMs);
      for (const res of answering) if (!res.headersSent) res.setHeader("Connection", "close");
      // Connections the kernel already accepted (the listen backlog) would be reset by closing the
      // listener: take them first. Node takes about one per turn of the event loop (two immediates
      // hold a poll phase between them), so turn until a turn takes none.
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      for (let seen = -1; seen !== accepted && Date.now() < deadline;) {
        seen = accepted;
        await turn();
        await turn();
      }
      // net.Server#close: stop listening, without http.Server#close's closing of "idle" connections.
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      const open = () => [...connections].filter(([, c]) => !c.upgraded);
      for (;;) {
        const now = Date.now();
        // Node's idle: no request begun on it (one whose headers are still arriving is kept).
        if (now >= graceEnds) server.closeIdleConnections();
        if ((answering.size === 0 && open().length === 0) || now >= deadline) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      if (answering.size > 0)
        opts.logger.warn({ inFlight: answering.size }, "shutdown deadline passed; closing connections");
      for (const socket of connections.keys()) socket.destroy();
      await closed;
    },
  };
}

/** Listens on host:port (0: a free port); resolves with the port and a URL a local client can use. */
export async function listen(
  server: http.Server,
  port: number,
  host: string,
): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const local = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return { port: bound, url: `http://${local.includes(":") ? `[${local}]` : local}:${bound}` };
}
