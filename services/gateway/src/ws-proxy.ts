import type { IncomingMessage } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import {
  INTERNAL_HEADERS,
  clientIp,
  requestIdFrom,
  sessionTokenFromCookieHeader,
  verifySession,
  type Logger,
  type SessionDeps,
  type TrustedProxies,
} from "@lease/platform";
import { isSameOrigin } from "./security";
import { orderTargets, type Upstream } from "./proxy";

function refuse(socket: Duplex, status: number, reason: string) {
  if (socket.writable)
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

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
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/ws") return refuse(socket, 404, "Not Found");
    if (!isSameOrigin(req.headers.origin, req.headers.host, opts.publicOrigin))
      return refuse(socket, 403, "Forbidden");
    let ok = false;
    try {
      ok =
        (await verifySession(opts.session, sessionTokenFromCookieHeader(req.headers.cookie))) !== undefined;
    } catch {
      return refuse(socket, 503, "Service Unavailable");
    }
    if (!ok) return refuse(socket, 401, "Unauthorized");

    const requestId = requestIdFrom(req.headers["x-request-id"]);
    const upstream = await connectFirst(orderTargets(opts.upstream).map((t) => t.url));
    if (!upstream) {
      opts.logger.warn("ws upstream unreachable");
      return refuse(socket, 503, "Service Unavailable");
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
