import type { MailOutcomeEvent } from "@lease/contracts";
import { useEffect, useRef, useState } from "react";
import { liveSocketUrl } from "./live";
import { startLiveConnection, type LiveConnectionOptions } from "./live-connection";
import { stillSignedIn } from "../api";

/** What the panel's pages take from the admin WebSocket. */
export type AdminSocketHandlers = Pick<LiveConnectionOptions, "onUpdate" | "onMailOutcome">;

/**
 * The admin WebSocket of a page: hands each message to the latest `handlers` (they may change on
 * every render), reconnects after a close (stopping once the session has ended), and tells whether
 * it is connected (callers poll while it is not).
 */
export function useAdminSocket(handlers: AdminSocketHandlers): boolean {
  const [connected, setConnected] = useState(false);
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(
    () =>
      startLiveConnection({
        url: liveSocketUrl(window.location),
        onSessionEnded: stillSignedIn,
        onConnected: setConnected,
        onUpdate: (data) => latest.current.onUpdate?.(data),
        onMailOutcome: (outcome) => latest.current.onMailOutcome?.(outcome),
      }),
    [],
  );
  return connected;
}

/**
 * The admin WebSocket for the mailer's outcomes (compose window, sent mail): calls `onOutcome` for
 * each, reconnects like the live visitor feed, and tells whether it is connected.
 */
export function useMailOutcomes(onOutcome: (outcome: MailOutcomeEvent) => void): boolean {
  return useAdminSocket({ onMailOutcome: onOutcome });
}
