import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { WS_PATH } from "@lease/contracts";
import {
  admitAdminUpgrade,
  verifySession,
  type AdminClaims,
  type Logger,
  type SessionDeps,
} from "@lease/platform";
import type { VisitorFeed } from "./visitor-feed";

export interface AdminSocketOptions {
  session: SessionDeps;
  feed: VisitorFeed;
  logger: Logger;
  publicOrigin?: string;
  recheckMs: number;
  pingMs: number;
}

interface SocketState {
  token: string;
  claims: AdminClaims;
  alive: boolean;
}

/** Close codes the admin sees: 4401 = session ended (log in again). */
const SESSION_ENDED = 4401;

/**
 * The admin WebSocket on the service's own HTTP server. The gateway already checked origin and
 * session; this checks both again (the service port is no way around it), re-checks the session
 * every `recheckMs` and at once when told the admin's sessions ended (logout, password reset or
 * removal close the socket with 4401) and pings so dead peers are dropped.
 */
export function createAdminSockets(o: AdminSocketOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false });
  const states = new Map<WebSocket, SocketState>();

  const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const admitted = await admitAdminUpgrade(req, socket, {
      path: WS_PATH,
      session: o.session,
      publicOrigin: o.publicOrigin,
    });
    if (!admitted) return;
    const { token, claims: admin } = admitted;
    wss.handleUpgrade(req, socket, head, (ws) => {
      states.set(ws, { token, claims: admin, alive: true });
      ws.on("pong", () => {
        const s = states.get(ws);
        if (s) s.alive = true;
      });
      ws.on("error", () => ws.terminate());
      ws.on("close", () => {
        states.delete(ws);
        o.feed.remove(ws);
      });
      // The admin only listens; anything it sends is ignored (maxPayload caps abuse).
      void o.feed.add(ws);
    });
  };

  /** Closes (4401) the sockets whose session expired or ended; only those of `username` if given. */
  const recheckSessions = (username?: string) => {
    for (const [ws, s] of states) {
      if (username !== undefined && s.claims.username !== username) continue;
      if (s.claims.exp * 1000 <= Date.now()) {
        ws.close(SESSION_ENDED, "session expired");
        continue;
      }
      verifySession(o.session, s.token).then(
        (claims) => {
          if (!claims) ws.close(SESSION_ENDED, "session ended");
        },
        () => undefined, // Redis away: keep the socket; the next check decides
      );
    }
  };
  // The periodic check is the backstop; a SessionsEnded event (see recheck) closes them at once.
  const recheck = setInterval(() => recheckSessions(), o.recheckMs);

  const ping = setInterval(() => {
    for (const [ws, s] of states) {
      if (!s.alive) {
        ws.terminate();
        continue;
      }
      s.alive = false;
      ws.ping();
    }
  }, o.pingMs);

  return {
    onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      onUpgrade(req, socket, head).catch((err: Error) => {
        o.logger.warn({ err: err.message }, "ws upgrade failed");
        socket.destroy();
      });
    },
    get count() {
      return states.size;
    },
    /** An admin's sessions ended (logout, password reset, removal): re-check that admin's sockets now. */
    recheck(username: string) {
      recheckSessions(username);
    },

    /** Sends the same text to every open admin socket of this replica. */
    broadcast(text: string): void {
      for (const ws of states.keys()) if (ws.readyState === ws.OPEN) ws.send(text);
    },
    async close(): Promise<void> {
      clearInterval(recheck);
      clearInterval(ping);
      for (const ws of states.keys()) ws.close(1001, "server stopping");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
