import type { ReactNode } from "react";
import { useCompanySettings } from "../../api/public";
import { companyDetails, telHref, type CompanyDetails } from "../../lib/company";

export const LAST_UPDATED = "Laatst bijgewerkt: 20 augustus 2025";

/** Frame of the legal pages: title, last-updated line and numbered articles. */
export function LegalPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-14 sm:px-6 lg:py-20">
      <h1 className="text-4xl font-bold text-ink">{title}</h1>
      <p className="mt-3 text-sm font-medium text-muted">{LAST_UPDATED}</p>
      <div className="mt-6 text-lg text-muted">{intro}</div>
      <div className="mt-10 space-y-10">{children}</div>
    </article>
  );
}

export function Article({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  return (
    <section
      id={id}
      aria-labelledby={id ? `${id}-titel` : undefined}
      className="space-y-3 leading-relaxed text-ink"
    >
      <h2 id={id ? `${id}-titel` : undefined} className="text-2xl font-semibold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <ul className="list-disc space-y-1 pl-6">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

export function useCompany(): CompanyDetails {
  return companyDetails(useCompanySettings());
}

// The parts of the legal pages that show the company's settings; the rest of a legal page is
// static. Each runs as an island (src/islands/), which fills in the settings once they arrive.

export function CompanyAddress() {
  return <CompanyAddressBlock company={useCompany()} />;
}

export function CompanyIntroduction() {
  return <>{companyIntroduction(useCompany())}</>;
}

export function CompanyName() {
  return <>{useCompany().name}</>;
}

/** The company's details, each line only when it is configured. */
export function CompanyAddressBlock({ company }: { company: CompanyDetails }) {
  const place = [company.postalCode, company.city].filter(Boolean).join(" ");
  return (
    <address
      className="rounded-card bg-gray-50 p-5 not-italic wrap-anywhere ring-1 ring-gray-200"
      data-testid="bedrijfsgegevens"
    >
      <strong className="block">{company.name}</strong>
      {company.address && <span className="block">{company.address}</span>}
      {place && <span className="block">{place}</span>}
      {company.kvk && <span className="block">KvK-nummer: {company.kvk}</span>}
      {company.btw && <span className="block">BTW-nummer: {company.btw}</span>}
      {company.email && (
        <span className="block">
          E-mail:{" "}
          <a href={`mailto:${company.email}`} className="text-primary-strong underline">
            {company.email}
          </a>
        </span>
      )}
      {company.phone && (
        <span className="block">
          Telefoon:{" "}
          <a href={telHref(company.phone)} className="text-primary-strong underline">
            {company.phone}
          </a>
        </span>
      )}
    </address>
  );
}

/** "Zakelijk Lease Centrum, gevestigd te Amsterdam en ingeschreven onder KvK-nummer 12345678" from what is set. */
export function companyIntroduction(company: CompanyDetails): string {
  let text = company.name;
  if (company.city) text += `, gevestigd te ${company.city}`;
  if (company.kvk)
    text += `${company.city ? " en" : ","} ingeschreven bij de Kamer van Koophandel onder nummer ${company.kvk}`;
  return text;
}
