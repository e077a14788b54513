import { AdSpendSection } from "./AdSpendSection";
import { CampaignReportSection } from "./CampaignReportSection";

/** "Campagnes": what each campaign costs (ad spend) and what it brings. */
export function CampaignsTab() {
  return (
    <div className="space-y-6">
      <CampaignReportSection />
      <AdSpendSection />
    </div>
  );
}
