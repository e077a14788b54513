import type { IncomingMessage } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { WS_PATH } from "@lease/contracts";
import {
  INTERNAL_HEADERS,
  admitAdminUpgrade,
  clientIp,
  refuseUpgrade,
  requestIdFrom,
  type Logger,
  type SessionDeps,
  type TrustedProxies,
} from "@lease/platform";
import { orderTargets, type Upstream } from "./proxy";

/**
 * Tunnels the admin WebSocket to tracking. The gateway checks origin and session first; tracking
 * checks them again, so its own port is no way in either.
 */
export function createWsProxy(opts: {
  upstream: Upstream;
  session: SessionDeps;
  logger: Logger;
  publicOrigin?: string;
  trustedProxies: TrustedProxies;
}) {
  return async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on("error", () => socket.destroy());
    const admitted = await admitAdminUpgrade(req, socket, {
      path: WS_PATH,
      session: opts.session,
      publicOrigin: opts.publicOrigin,
    });
    if (!admitted) return;

    const requestId = requestIdFrom(req.headers["x-request-id"]);
    const upstream = await connectFirst(orderTargets(opts.upstream).map((t) => t.url));
    if (!upstream) {
      opts.logger.warn("ws upstream unreachable");
      return refuseUpgrade(socket, 503, "Service Unavailable");
    }
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (INTERNAL_HEADERS.has(name.toLowerCase())) continue;
      lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
    }
    lines.push(`X-Forwarded-For: ${clientIp(req, opts.trustedProxies)}`, `X-Request-Id: ${requestId}`);
    upstream.write(lines.join("\r\n") + "\r\n\r\n");
    if (head.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
    upstream.on("error", (err) => {
      opts.logger.warn({ err: err.message }, "ws upstream failed");
      socket.destroy();
    });
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
  };
}

/** Connects to the first replica that accepts a TCP connection. */
async function connectFirst(urls: URL[]): Promise<net.Socket | undefined> {
  for (const url of urls) {
    const socket = await new Promise<net.Socket | undefined>((resolve) => {
      const s = net.connect(Number(url.port), url.hostname);
      s.once("connect", () => resolve(s));
      s.once("error", () => resolve(undefined));
    });
    if (socket) return socket;
  }
  return undefined;
}
