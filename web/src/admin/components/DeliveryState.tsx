import type { EmailDelivery } from "@lease/contracts";
import { Badge } from "../../components/ui";
import { deliveryStateLines } from "../lib/delivery-state";

/** A sent e-mail's fate after SendGrid took it (the Event Webhook): badges, and the server's reason. */
export function DeliveryState({ delivery }: { delivery: EmailDelivery | null }) {
  const lines = deliveryStateLines(delivery);
  if (lines.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="delivery-state">
      {lines.map((line) => (
        <span key={line.label} className="flex flex-wrap items-center gap-1">
          <Badge tone={line.tone}>{line.label}</Badge>
          {line.reason && <span className="wrap-anywhere text-gray-700">{line.reason}</span>}
        </span>
      ))}
    </div>
  );
}
