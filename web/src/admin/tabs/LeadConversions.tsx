import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  CONVERSION_PLATFORMS,
  type ConversionDelivery,
  type ConversionEvent,
  type ConversionPlatform,
  type LeaseRequest,
} from "@lease/contracts";
import { useState } from "react";
import { useNotice } from "../../components/notice";
import { Badge, Button } from "../../components/ui";
import { ADMIN_KEYS, findLeaseRequest, retryConversions } from "../api";
import { conversionsPollMs } from "../lib/conversions";
import { matchKeysText } from "../lib/match-keys";
import { formatAmsterdamDateTime } from "../lib/format";

const PLATFORM_LABELS: Record<ConversionPlatform, string> = {
  meta: "Meta",
  tiktok: "TikTok",
  snapchat: "Snapchat",
  google: "Google",
};
const EVENT_LABELS: Record<ConversionEvent, string> = {
  lead: "Aanvraag",
  offerte: "Offerte",
  getekend: "Getekend",
};
const STATUS: Record<ConversionDelivery["status"], { label: string; tone: "green" | "yellow" | "red" }> = {
  sent: { label: "Verzonden", tone: "green" },
  waiting: { label: "Wacht", tone: "yellow" },
  failed: { label: "Mislukt", tone: "red" },
};

/**
 * "Advertentieplatforms": per platform, what the server told it about this lead (sent, waiting,
 * failed with the platform's own message) and a retry for what failed. Read from the request's
 * own answer (the list does not carry them); refreshed while anything waits, and after a stage is
 * reached until its event's first outcome is in (conversionsPollMs). The detail mounts it again
 * for each stage (its key), so `shown` is when this stage was first shown.
 */
export function LeadConversions({ request }: { request: LeaseRequest }) {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const [shown] = useState(() => Date.now());
  const detail = useQuery({
    queryKey: ADMIN_KEYS.leadConversions(request.id),
    queryFn: () => findLeaseRequest(request.id),
    enabled: request.marketingConsent,
    refetchInterval: (query) =>
      query.state.data
        ? conversionsPollMs(query.state.data.conversions, request.status, Date.now() - shown)
        : false,
  });
  const retry = useMutation({
    mutationFn: (platform: ConversionPlatform) => retryConversions(request.id, platform),
    onSuccess: (updated) => {
      queryClient.setQueryData(ADMIN_KEYS.leadConversions(request.id), updated);
      notify({
        title: "Opnieuw Verzonden",
        description: "De mislukte conversies staan weer in de wachtrij.",
      });
    },
    onError: (failure) =>
      notifyError("Fout bij Opnieuw Versturen", failure, "Kon de conversies niet opnieuw versturen"),
  });
  if (!request.marketingConsent) {
    return (
      <section className="border-t border-gray-200 pt-4" data-testid="lead-conversions">
        <h3 className="text-sm font-semibold text-gray-800">Advertentieplatforms</h3>
        <p className="mt-1 text-sm text-gray-600">
          Geen toestemming voor marketingcookies: er is niets aan advertentieplatforms gemeld.
        </p>
      </section>
    );
  }
  const conversions = detail.data?.conversions ?? [];
  return (
    <section className="border-t border-gray-200 pt-4" data-testid="lead-conversions">
      <h3 className="text-sm font-semibold text-gray-800">Advertentieplatforms</h3>
      {conversions.length === 0 ? (
        <p className="mt-1 text-sm text-gray-600">
          {detail.isLoading
            ? "Laden…"
            : "Nog niets gemeld (geen platform ingeschakeld, of het wordt verzonden)."}
        </p>
      ) : (
        <ul className="mt-2 space-y-2">
          {CONVERSION_PLATFORMS.filter((p) => conversions.some((c) => c.platform === p)).map((platform) => {
            const rows = conversions.filter((c) => c.platform === platform);
            return (
              <li key={platform} data-platform={platform} className="rounded border border-gray-200 p-2">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-gray-900">{PLATFORM_LABELS[platform]}</span>
                  {rows.some((c) => c.status === "failed") && (
                    <Button
                      variant="secondary"
                      disabled={retry.isPending}
                      onClick={() => retry.mutate(platform)}
                    >
                      Opnieuw versturen
                    </Button>
                  )}
                </div>
                <ul className="mt-1 space-y-1 text-sm">
                  {rows.map((c) => (
                    <li key={c.event} className="flex flex-wrap items-center gap-2">
                      <span className="text-gray-700">{EVENT_LABELS[c.event]}</span>
                      <Badge tone={STATUS[c.status].tone}>{STATUS[c.status].label}</Badge>
                      <span className="text-gray-600">{formatAmsterdamDateTime(c.at)}</span>
                      {c.matchKeys.length > 0 && (
                        <span className="text-gray-600" data-testid="match-keys">
                          Gematcht met: {matchKeysText(c.matchKeys)}
                        </span>
                      )}
                      {c.error && <span className="w-full wrap-anywhere text-gray-700">{c.error}</span>}
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
