import { channelLabel, type AttributionStatus, type LeadAttribution as Attribution } from "@lease/contracts";
import type { ReactNode } from "react";
import { formatAmsterdamDateTime } from "../lib/format";
import { pageLabel } from "../lib/live";
import { OtherValueLegend, mentionsOther } from "../components/OtherValue";

/** "google / cpc / najaar": the UTM values there are, or null without any. */
export function campaignLine(a: Pick<Attribution, "source" | "medium" | "campaign">): string | null {
  const parts = [a.source, a.medium, a.campaign];
  return parts.some(Boolean) ? parts.map((p) => p || "–").join(" / ") : null;
}

/** What the Herkomst says without an attribution, by why there is none (yet). */
export const NO_ATTRIBUTION: Record<AttributionStatus, string> = {
  pending: "Herkomst wordt bepaald…",
  found: "Herkomst wordt bepaald…",
  no_consent: "Geen herkomst bekend (geen toestemming voor analytische cookies).",
  not_found: "Geen herkomst bekend (het bezoek is niet vastgelegd).",
  unknown:
    "Onbekend: de aanvraag kwam zonder toestemming voor analytische cookies, of het bezoek is niet vastgelegd.",
};

/**
 * "Herkomst": where the visit that sent the request came from (its first page view's channel,
 * campaign, referrer and landing page) and the pages it saw before the form; while tracking works
 * it out (a few seconds after the form) it says so, and the panel reloads the lead when it is known.
 */
export function LeadAttribution({
  attribution,
  status,
}: {
  attribution: Attribution | null;
  status: AttributionStatus;
}) {
  return (
    <section
      aria-labelledby="herkomst-titel"
      data-testid="lead-attribution"
      className="border-t border-gray-200 pt-4"
    >
      <h3 id="herkomst-titel" className="mb-2 text-base font-semibold text-gray-900">
        Herkomst
      </h3>
      {!attribution ? (
        <p className="text-sm text-gray-600" data-testid="lead-attribution-status" role="status">
          {NO_ATTRIBUTION[status]}
        </p>
      ) : (
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Item label="Kanaal">{channelLabel(attribution.channel)}</Item>
          <Item label="Bron / medium / campagne">{campaignLine(attribution) ?? "Geen campagne"}</Item>
          {attribution.term && <Item label="Zoekterm">{attribution.term}</Item>}
          {attribution.content && <Item label="Advertentie-inhoud">{attribution.content}</Item>}
          <Item label="Betaalde klik">{attribution.paidClick ? "Ja" : "Nee"}</Item>
          <Item label="Verwijzende website">{attribution.referrerHost || "Geen (direct)"}</Item>
          <Item label="Landingspagina">
            <span title={attribution.landingPage}>{pageLabel(attribution.landingPage)}</span>{" "}
            <code className="text-xs text-gray-600">{attribution.landingPage}</code>
          </Item>
          <Item label="Eerste bezoek">{formatAmsterdamDateTime(attribution.firstSeenAt)}</Item>
          <Item label="Pagina's voor de aanvraag" wide>
            {attribution.pagesBeforeConversion}
            {attribution.pages.length > 0 && (
              <ol className="mt-1 list-decimal space-y-0.5 pl-5" data-testid="lead-attribution-pages">
                {attribution.pages.map((page, i) => (
                  <li key={i} className="wrap-anywhere">
                    {page}
                  </li>
                ))}
              </ol>
            )}
            {attribution.pagesBeforeConversion > attribution.pages.length && (
              <p className="mt-1 text-xs text-gray-600">De eerste {attribution.pages.length} getoond.</p>
            )}
          </Item>
        </dl>
      )}
      {/* Leads of before kept their visit's values only as the breakdowns stored them. */}
      {attribution &&
        [attribution.source, attribution.medium, attribution.campaign, attribution.referrerHost].some(
          mentionsOther,
        ) && <OtherValueLegend />}
    </section>
  );
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="font-medium text-gray-600">{label}</dt>
      <dd className="mt-0.5 text-gray-900">{children}</dd>
    </div>
  );
}
