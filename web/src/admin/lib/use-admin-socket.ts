import type { MailOutcomeEvent } from "@lease/contracts";
import { useEffect, useRef, useState } from "react";
import { liveSocketUrl } from "./live";
import { startLiveConnection } from "./live-connection";
import { stillSignedIn } from "../api";

/**
 * The admin WebSocket for the mailer's outcomes (compose window, sent mail): calls `onOutcome` for
 * each, reconnects like the live visitor feed, and tells whether it is connected (callers poll
 * while it is not).
 */
export function useMailOutcomes(onOutcome: (outcome: MailOutcomeEvent) => void): boolean {
  const [connected, setConnected] = useState(false);
  const handler = useRef(onOutcome);
  useEffect(() => {
    handler.current = onOutcome;
  });
  useEffect(
    () =>
      startLiveConnection({
        url: liveSocketUrl(window.location),
        onSessionEnded: stillSignedIn,
        onConnected: setConnected,
        onMailOutcome: (outcome) => handler.current(outcome),
      }),
    [],
  );
  return connected;
}
