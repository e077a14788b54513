import type { ReactNode } from "react";
import { Link } from "../lib/link";
import { useCompanySettings } from "../api/public";
import { COMPANY_FALLBACKS, companyDetails, registrationLines, telHref } from "../lib/company";
import { openConsentBanner } from "../lib/consent-store";
import { CarIcon } from "./Header";

const SERVICE_LINKS = [
  { to: "/zakelijke-lease", label: "Zakelijke Lease" },
  { to: "/financiele-lease", label: "Financiële Lease" },
  { to: "/operationele-lease", label: "Operationele Lease" },
  { to: "/fleet-management", label: "Fleet Management" },
];

const COMPANY_LINKS = [
  { to: "/over-ons", label: "Over Ons" },
  { to: "/voorwaarden", label: "Algemene Voorwaarden" },
  { to: "/privacy-beleid", label: "Privacy Beleid" },
  { to: "/cookie-beleid", label: "Cookie Beleid" },
];

const SOCIAL_PLACEHOLDERS = [
  { label: "Facebook", path: "M14 8h3V4h-3a4 4 0 0 0-4 4v2H8v4h2v8h4v-8h3l1-4h-4V8.5a.5.5 0 0 1 .5-.5z" },
  {
    label: "LinkedIn",
    path: "M5 9h3v11H5zM6.5 4a1.75 1.75 0 1 1 0 3.5 1.75 1.75 0 0 1 0-3.5zM10 9h3v1.6c.5-.9 1.7-1.8 3.4-1.8 3.2 0 3.6 2 3.6 4.7V20h-3v-5.7c0-1.4 0-3-1.8-3s-2.2 1.4-2.2 2.9V20h-3z",
  },
  {
    label: "Instagram",
    path: "M8 3h8a5 5 0 0 1 5 5v8a5 5 0 0 1-5 5H8a5 5 0 0 1-5-5V8a5 5 0 0 1 5-5zm0 2a3 3 0 0 0-3 3v8a3 3 0 0 0 3 3h8a3 3 0 0 0 3-3V8a3 3 0 0 0-3-3zm4 3.5a3.5 3.5 0 1 1 0 7 3.5 3.5 0 0 1 0-7zm0 2a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM17 6a1 1 0 1 1 0 2 1 1 0 0 1 0-2z",
  },
];

export function Footer() {
  const company = companyDetails(useCompanySettings());
  return (
    <footer className="bg-gray-900 px-4 pt-14 pb-8 text-gray-300 sm:px-6">
      <div className="mx-auto grid max-w-6xl gap-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <span
              aria-hidden="true"
              className="grid h-8 w-8 place-items-center rounded-button bg-primary-strong text-white"
            >
              <CarIcon />
            </span>
            {company.name}
          </p>
          <p className="mt-4 text-sm leading-relaxed">
            Uw onafhankelijke partner voor zakelijke autolease. Ook met een BKR-registratie denken wij met u
            mee.
          </p>
          <div className="mt-5 flex gap-3">
            {SOCIAL_PLACEHOLDERS.map((social) => (
              <a
                key={social.label}
                role="link"
                aria-disabled="true"
                aria-label={`${social.label} (binnenkort beschikbaar)`}
                title={`${social.label} (binnenkort beschikbaar)`}
                className="grid h-9 w-9 place-items-center rounded-full bg-gray-800 text-gray-300"
              >
                <svg className="h-4 w-4" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                  <path d={social.path} />
                </svg>
              </a>
            ))}
          </div>
        </div>
        <FooterLinks title="Diensten" links={SERVICE_LINKS} />
        <FooterLinks title="Bedrijf" links={COMPANY_LINKS}>
          {/* Where people look for it on every page; it opens the banner with the saved choice. */}
          <li>
            <button type="button" className="text-left hover:text-white" onClick={openConsentBanner}>
              Cookie-instellingen
            </button>
          </li>
        </FooterLinks>
        <div>
          <h2 className="text-base font-semibold text-white">Contact</h2>
          <ul className="mt-4 space-y-2 text-sm">
            <li>
              {company.phone ? (
                <a className="hover:text-white" href={telHref(company.phone)}>
                  {company.phone}
                </a>
              ) : (
                COMPANY_FALLBACKS.phone
              )}
            </li>
            <li>
              {company.email ? (
                <a className="break-all hover:text-white" href={`mailto:${company.email}`}>
                  {company.email}
                </a>
              ) : (
                COMPANY_FALLBACKS.email
              )}
            </li>
            <li>{company.address ?? COMPANY_FALLBACKS.address}</li>
            {(company.postalCode || company.city) && (
              <li>{[company.postalCode, company.city].filter(Boolean).join(" ")}</li>
            )}
            {registrationLines(company).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      </div>
      <div className="mx-auto mt-12 max-w-6xl border-t border-gray-800 pt-6 text-center text-sm text-gray-400">
        © 2024 {company.name.replace(/\.$/, "")}. Alle rechten voorbehouden.
      </div>
    </footer>
  );
}

function FooterLinks({
  title,
  links,
  children,
}: {
  title: string;
  links: { to: string; label: string }[];
  children?: ReactNode;
}) {
  return (
    <div>
      <h2 className="text-base font-semibold text-white">{title}</h2>
      <ul className="mt-4 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="hover:text-white">
              {link.label}
            </Link>
          </li>
        ))}
        {children}
      </ul>
    </div>
  );
}
