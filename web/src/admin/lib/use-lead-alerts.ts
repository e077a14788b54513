import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { EmailReceivedEvent, LeadCreatedEvent, LeadOverdueEvent } from "@lease/contracts";
import { useEffect, useState } from "react";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchLeaseRequests, stillSignedIn } from "../api";
import { liveSocketUrl } from "./live";
import { startLiveConnection } from "./live-connection";

/** How long a new lead waits for others before the lists are reloaded (well inside the 2 s). */
export const RELOAD_COALESCE_MS = 250;

/** The second part of the query key of a lead's sent e-mails (after ADMIN_KEYS.emails). */
export const LEAD_EMAILS = "lease-request";

/**
 * The live notice for a lead that just arrived (like every notice: a title and one sentence); for its
 * owner it says so, for the others it names the owner.
 */
export function leadNotice(
  event: Pick<LeadCreatedEvent, "source"> & { owner?: LeadCreatedEvent["owner"] },
  meId?: string,
): { title: string; description: string } {
  if (event.owner && event.owner.id === meId)
    return event.source === "lease_request"
      ? {
          title: "Nieuwe Aanvraag voor jou",
          description: "Er is zojuist een lease aanvraag aan jou toegewezen.",
        }
      : {
          title: "Nieuw Bericht voor jou",
          description: "Er is zojuist een bericht via het contactformulier aan jou toegewezen.",
        };
  const base =
    event.source === "lease_request"
      ? { title: "Nieuwe Aanvraag", description: "Er is zojuist een nieuwe lease aanvraag binnengekomen." }
      : {
          title: "Nieuw Bericht",
          description: "Er is zojuist een nieuw bericht via het contactformulier binnengekomen.",
        };
  return event.owner
    ? { ...base, description: `${base.description} Toegewezen aan ${event.owner.username}.` }
    : base;
}

/**
 * The live notice for a lead past its deadline: prominent (destructive) for its owner, and for
 * everyone when it has none; undefined for the other admins (their lists reload only).
 */
export function overdueNotice(
  event: Pick<LeadOverdueEvent, "source" | "owner">,
  meId?: string,
): { title: string; description: string; variant: "destructive" } | undefined {
  const what = event.source === "lease_request" ? "lease aanvraag" : "bericht";
  if (event.owner && event.owner.id === meId)
    return {
      title: "Te laat",
      description: `Jouw ${what} heeft de reactietermijn overschreden zonder reactie.`,
      variant: "destructive",
    };
  if (!event.owner)
    return {
      title: "Te laat",
      description: `Een ${what} zonder eigenaar heeft de reactietermijn overschreden.`,
      variant: "destructive",
    };
  return undefined;
}

/** The live notice for a received e-mail: a customer's reply to a lead, or any other. */
export function emailNotice(event: Pick<EmailReceivedEvent, "leaseRequestId">): {
  title: string;
  description: string;
} {
  return event.leaseRequestId
    ? {
        title: "Nieuw Antwoord",
        description: "Een klant heeft zojuist geantwoord op een e-mail over een aanvraag.",
      }
    : { title: "Nieuwe E-mail", description: "Er is zojuist een e-mail binnengekomen in de inbox." };
}

/** "(2) Lease Aanvragen | Beheer": the unread count first, so it shows in a background browser tab. */
export function dashboardTitle(label: string, unread: number | undefined): string {
  return `${unread ? `(${unread}) ` : ""}${label} | Beheer`;
}

/**
 * Speed to lead: while the panel is open, a new quote request or contact message (pushed on the
 * admin WebSocket) shows a notice and reloads the lists it belongs in, so it appears on top without
 * a refresh, and reloads them when a lead's Herkomst was decided (tracking answers a few seconds
 * after the form); after a lost connection the lists are reloaded once, for what arrived meanwhile. The
 * mailer's outcomes on the same socket reload the e-mails on an open lead's timeline.
 * Returns the number of unread lease requests (the page title) and of those to follow up today.
 */
export function useLeadAlerts(
  enabled: boolean,
  meId?: string,
): { unread?: number; followUpDue?: number; live: boolean } {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  // Whether the socket is up now: what arrives meanwhile shows at once (the page says so, data-live).
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    let wasConnected = false;
    // A burst of leads reloads the lists once, RELOAD_COALESCE_MS after the first of them.
    let pending: ReturnType<typeof setTimeout> | undefined;
    const reload = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
        void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.emails });
      }, RELOAD_COALESCE_MS);
    };
    const stop = startLiveConnection({
      url: liveSocketUrl(window.location),
      // The session ended (code 4401): the session check runs now, so a disabled or removed
      // admin's panel leaves at once for the sign-in page, which says why.
      onSessionEnded: async () => {
        // A session this panel renewed itself goes on under its new cookie.
        if (await stillSignedIn()) return true;
        await queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.me });
        return queryClient.getQueryState(ADMIN_KEYS.me)?.status === "success";
      },
      onConnected: (connected) => {
        setLive(connected);
        if (connected && wasConnected) reload();
        if (connected) wasConnected = true;
      },
      onLeadCreated: (event) => {
        notify({ ...leadNotice(event, meId), live: true });
        reload();
      },
      // A lead passed its deadline: its owner is told prominently; every list shows it late.
      onLeadOverdue: (event) => {
        const notice = overdueNotice(event, meId);
        if (notice) notify({ ...notice, live: true });
        reload();
      },
      // A lead's Herkomst was decided: an open lead stops saying "Herkomst wordt bepaald…".
      onLeadAttributed: () => reload(),
      // An e-mail arrived (a customer's reply, or any other): told like a new lead, the inbox and
      // its unread count reload; spam only reloads.
      onEmailReceived: (event) => {
        if (!event.spam) notify({ ...emailNotice(event), live: true });
        reload();
      },
      // An e-mail is on a lead's timeline (a reply, a send, its delivery state): the open lead shows it.
      onLeadEmail: () => reload(),
      // An e-mail sent to a lead was answered by the provider: its timeline shows it (LeadTimeline).
      onMailOutcome: () =>
        void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEYS.emails, LEAD_EMAILS] }),
    });
    return () => {
      clearTimeout(pending);
      stop();
    };
  }, [enabled, meId, notify, queryClient]);

  const counts = useQuery({
    queryKey: [...ADMIN_KEYS.leaseRequests, "counts"],
    queryFn: () => fetchLeaseRequests({ q: "", status: "", channel: "", campaign: "", page: 1, pageSize: 1 }),
    select: (answer) => answer.counts,
    enabled,
    staleTime: 0,
  });

  // The follow-ups due are a line in the panel's header (AdminDashboardPage), not a notice: a
  // notice on every load covered the tabs on a phone.
  return { unread: counts.data?.unread, followUpDue: counts.data?.followUpDue, live };
}
