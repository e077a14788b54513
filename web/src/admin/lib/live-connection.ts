import {
  ServerWsMessage,
  type EmailReceivedMessage,
  type LeadAttributedMessage,
  type LeadEmailMessage,
  type LeadCreatedMessage,
  type LeadOverdueMessage,
  type MailOutcomeMessage,
  type VisitorUpdateMessage,
} from "@lease/contracts";
import { RETRY_AFTER_CLOSE_MS, RETRY_AFTER_THROW_MS } from "./live";

/** The close code the server uses for a session that ended. */
const SESSION_ENDED_CODE = 4401;

type SocketLike = Pick<WebSocket, "close"> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
};

export interface LiveConnectionOptions {
  url: string;
  onUpdate?: (data: VisitorUpdateMessage["data"]) => void;
  /** The mailer's answers for e-mails the admin sent (relayed on the same socket). */
  onMailOutcome?: (data: MailOutcomeMessage["data"]) => void;
  /** A quote request or contact message just arrived. */
  onLeadCreated?: (data: LeadCreatedMessage["data"]) => void;
  /**
   * The server closed the socket because the session ended (code 4401: logout elsewhere, a
   * password change, disabled or removed by another admin). Answers whether this browser is still
   * signed in (a renewed session): then it reconnects at once, else it stops for good instead of
   * retrying a socket the server will refuse. Without it, it retries like after any close.
   */
  onSessionEnded?: () => Promise<boolean>;
  /** A lead's Herkomst was decided (tracking's answer stored). */
  onLeadAttributed?: (data: LeadAttributedMessage["data"]) => void;
  /** An e-mail arrived (a customer's reply, or any other). */
  onEmailReceived?: (data: EmailReceivedMessage["data"]) => void;
  /** An e-mail of a lead is on its timeline (a reply, a send, its delivery state). */
  onLeadEmail?: (data: LeadEmailMessage["data"]) => void;
  /** A lead passed its deadline without a response (told once per lead). */
  onLeadOverdue?: (data: LeadOverdueMessage["data"]) => void;
  onConnected: (connected: boolean) => void;
  createSocket?: (url: string) => SocketLike;
  log?: (message: string, detail: unknown) => void;
}

/**
 * The admin WebSocket: reports connected / lost, hands each visitor-update to
 * onUpdate, each mail-outcome to onMailOutcome, each lead-created to onLeadCreated and each
 * lead-attributed to onLeadAttributed (email-received, lead-email likewise), and reconnects 3 s after a close or 5 s after opening the socket threw. Errors are
 * only logged. Returns a stop function.
 */
export function startLiveConnection(options: LiveConnectionOptions): () => void {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const log = options.log ?? ((message, detail) => console.error(message, detail));
  let socket: SocketLike | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (ms: number) => {
    if (!stopped) retry = setTimeout(connect, ms);
  };

  function connect() {
    try {
      socket = createSocket(options.url);
    } catch (error) {
      log("Live bezoekers: verbinden mislukt", error);
      schedule(RETRY_AFTER_THROW_MS);
      return;
    }
    socket.onopen = () => options.onConnected(true);
    socket.onmessage = (event) => {
      try {
        const message = ServerWsMessage.parse(JSON.parse(String(event.data)));
        if (message.type === "visitor-update") options.onUpdate?.(message.data);
        else if (message.type === "lead-created") options.onLeadCreated?.(message.data);
        else if (message.type === "lead-attributed") options.onLeadAttributed?.(message.data);
        else if (message.type === "email-received") options.onEmailReceived?.(message.data);
        else if (message.type === "lead-email") options.onLeadEmail?.(message.data);
        else if (message.type === "lead-overdue") options.onLeadOverdue?.(message.data);
        else options.onMailOutcome?.(message.data);
      } catch (error) {
        log("Live bezoekers: onbekend bericht", error);
      }
    };
    socket.onerror = (event) => log("Live bezoekers: verbindingsfout", event);
    socket.onclose = (event) => {
      socket = null;
      options.onConnected(false);
      if (event?.code === SESSION_ENDED_CODE && options.onSessionEnded) {
        options.onSessionEnded().then(
          (signedIn) => {
            if (signedIn && !stopped) connect();
            else stopped = true;
          },
          () => schedule(RETRY_AFTER_CLOSE_MS),
        );
        return;
      }
      schedule(RETRY_AFTER_CLOSE_MS);
    };
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
  };
}
