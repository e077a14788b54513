import { useState } from "react";
import { AdSpendSection } from "./AdSpendSection";
import { CampaignReportSection } from "./CampaignReportSection";
import { amsterdamToday } from "../lib/follow-up";
import { addDays } from "../lib/periods";

/**
 * "Campagnes": what each campaign costs (ad spend) and what it brings. The report's period is the
 * spend list's too, so the costs below add up to the report's Kosten.
 */
export function CampaignsTab() {
  const today = amsterdamToday();
  const [period, setPeriod] = useState({ from: addDays(today, -29), to: today });
  return (
    <div className="space-y-6">
      <CampaignReportSection period={period} onPeriod={setPeriod} today={today} />
      <AdSpendSection period={period} />
    </div>
  );
}
