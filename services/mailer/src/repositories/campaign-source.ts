import { CampaignReport } from "@lease/contracts";
import { createInternalClient } from "@lease/platform";

/** The campaign report (the tracking service), for the weekly summary's cheapest campaigns. */
export interface CampaignSource {
  report(period: { from: string; to: string }, requestId?: string): Promise<CampaignReport>;
}

/** The report takes a few seconds at most to build (its statement limit in tracking is 5 s). */
const REPORT_TIMEOUT_MS = 15_000;

export function httpCampaignSource(trackingUrl: string, internalToken: string): CampaignSource {
  const call = createInternalClient(trackingUrl, internalToken, REPORT_TIMEOUT_MS);
  return {
    report: (period, requestId) =>
      call(`/internal/campaign-report?${new URLSearchParams(period)}`, CampaignReport, { requestId }),
  };
}
