import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { sessionTokenFromCookieHeader, verifySession, type AdminClaims, type SessionDeps } from "./session";

/**
 * Whether a request's Origin is the site's own: PUBLIC_ORIGIN when set (required in production),
 * else the Host the request was sent to. A missing or opaque ("null") origin never is.
 */
export function isSameOrigin(
  origin: string | undefined,
  host: string | undefined,
  publicOrigin?: string,
  scheme: "http" | "https" = "http",
): boolean {
  if (!origin || origin === "null") return false;
  if (publicOrigin) return origin === new URL(publicOrigin).origin;
  // Without PUBLIC_ORIGIN (development): scheme, host and port of the request itself, so an
  // https page is no match for an http site (nor one port for another).
  if (!host) return false;
  try {
    return new URL(origin).origin === new URL(`${scheme}://${host}`).origin;
  } catch {
    return false;
  }
}

/** The scheme a request came in with on this socket (TLS or not). */
export const socketScheme = (req: IncomingMessage): "http" | "https" =>
  (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";

/** Refuses a WebSocket upgrade with a bare HTTP answer and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  if (socket.writable)
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

/**
 * The admin WebSocket's gate, the same in the gateway and again in tracking: the path (404), a
 * same-origin Origin (403) and a valid admin session (401; 503 while sessions cannot be checked).
 * Refuses the upgrade itself and answers undefined, or answers the session to go on with.
 */
export async function admitAdminUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  opts: { path: string; session: SessionDeps; publicOrigin?: string },
): Promise<{ token: string; claims: AdminClaims } | undefined> {
  const refuse = (status: number, reason: string) => void refuseUpgrade(socket, status, reason);
  if ((req.url ?? "/").split("?")[0] !== opts.path) return refuse(404, "Not Found");
  if (!isSameOrigin(req.headers.origin, req.headers.host, opts.publicOrigin, socketScheme(req)))
    return refuse(403, "Forbidden");
  const token = sessionTokenFromCookieHeader(req.headers.cookie);
  let claims: AdminClaims | undefined;
  try {
    claims = await verifySession(opts.session, token);
  } catch {
    return refuse(503, "Service Unavailable");
  }
  if (!claims || !token) return refuse(401, "Unauthorized");
  return { token, claims };
}
