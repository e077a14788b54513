import http from "node:http";
import type { AddressInfo } from "node:net";
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
  // Node only checks header/request timeouts on this interval (30 s by default): check often enough.
  const server = http.createServer(
    { connectionsCheckingInterval: Math.min(5000, Math.max(250, headersTimeout / 4)) },
    fastPath ? (req, res) => fastPath(req, res, () => void koa(req, res)) : koa,
  );
  // Slow clients must not pin sockets: headers within 10 s, a whole request within 30 s.
  server.headersTimeout = headersTimeout;
  server.requestTimeout = Math.max(30_000, server.headersTimeout);
  // Longer than the gateway's pooled keep-alive, so the pool closes first and never races us.
  server.keepAliveTimeout = 65_000;
  if (opts.onUpgrade) server.on("upgrade", opts.onUpgrade);
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });
  const { port, url } = await listen(server, opts.port, opts.host);
  return {
    server,
    port,
    url,
    async close(deadlineMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = Date.now() + deadlineMs;
      while (serviceApp.inFlight() > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        server.closeIdleConnections();
      }
      if (serviceApp.inFlight() > 0)
        opts.logger.warn(
          { inFlight: serviceApp.inFlight() },
          "shutdown deadline passed; closing connections",
        );
      server.closeAllConnections();
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
