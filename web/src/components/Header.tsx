import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Link } from "../lib/link";
import { useCompanySettings } from "../api/public";
import { DEFAULT_COMPANY_NAME } from "../lib/constants";
import { onPlainClick, useSiteNavigation, type HomeSection } from "../lib/navigation";
import { useHydrated } from "../lib/hydrated";
import { mobileTitle } from "../lib/title";
import { buttonClass } from "./ui";

const SECTION_ITEMS: { label: string; section: HomeSection }[] = [
  { label: "Diensten", section: "diensten" },
  { label: "Calculator", section: "calculator" },
];

export function Header() {
  const settings = useCompanySettings();
  const { goToSection, goToAboutUs } = useSiteNavigation();
  // The mobile menu is a popover its button opens: it works on the pre-rendered page before React
  // runs (on a slow phone that can take seconds), and Escape or a tap outside closes it. React
  // follows it (label, icon, aria-expanded) and closes it after a choice.
  const [menuOpen, setMenuOpen] = useState(false);
  const menu = useRef<HTMLElement>(null);
  const hydrated = useHydrated();
  // Opened before React ran: no toggle event reached it.
  useEffect(() => setMenuOpen(menu.current?.matches(":popover-open") ?? false), []);
  const companyName = settings?.companyName?.trim() || DEFAULT_COMPANY_NAME;
  const shortTitle = mobileTitle(settings?.companyName, settings?.mobileAbbreviation);

  // A choice closes the menu before the scroll to its section starts (the menu lies over the page,
  // so the section would scroll in under it).
  const choose = (action: () => void) =>
    onPlainClick(() => {
      if (menu.current?.matches(":popover-open")) menu.current.hidePopover();
      flushSync(() => setMenuOpen(false));
      action();
    });

  const items = (
    <>
      {SECTION_ITEMS.map((item) => (
        <a
          key={item.section}
          href={`/#${item.section}`}
          onClick={choose(() => goToSection(item.section))}
          className="rounded px-3 py-2 font-medium text-ink hover:text-primary-strong"
        >
          {item.label}
        </a>
      ))}
      <a
        href="/over-ons"
        onClick={choose(goToAboutUs)}
        className="rounded px-3 py-2 font-medium text-ink hover:text-primary-strong"
      >
        Over Ons
      </a>
      <a
        href="/#contact"
        onClick={choose(() => goToSection("contact"))}
        className="rounded px-3 py-2 font-medium text-ink hover:text-primary-strong"
      >
        Contact
      </a>
      <a
        href="/#aanvraag"
        onClick={choose(() => goToSection("aanvraag"))}
        className={buttonClass("primary", "py-2")}
      >
        Offerte Aanvragen
      </a>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-gray-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 rounded text-xl font-bold text-ink"
          data-testid="site-title"
        >
          <span
            aria-hidden="true"
            className="grid h-9 w-9 shrink-0 place-items-center rounded-button bg-primary-strong text-white"
          >
            <CarIcon />
          </span>
          <span className="hidden truncate sm:inline" data-testid="site-title-full">
            {companyName}
          </span>
          <span className="sm:hidden" data-testid="site-title-short" aria-label={companyName}>
            {shortTitle}
          </span>
        </Link>
        <nav aria-label="Hoofdmenu" className="hidden items-center gap-1 md:flex">
          {items}
        </nav>
        <button
          type="button"
          className="rounded-button p-2 text-ink hover:bg-gray-100 md:hidden"
          popoverTarget="mobiel-menu"
          aria-expanded={menuOpen}
          aria-controls="mobiel-menu"
          aria-label={menuOpen ? "Menu sluiten" : "Menu openen"}
          // Set once React runs the header (its label and icon follow the menu from then on).
          data-hydrated={hydrated || undefined}
        >
          <svg
            className="h-6 w-6"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>
      <nav
        id="mobiel-menu"
        ref={menu}
        popover="auto"
        onToggle={(event) => setMenuOpen(event.newState === "open")}
        aria-label="Mobiel menu"
        // Under the 4rem header bar, full width (a popover is centred by default); no display
        // class here: the browser hides the closed popover with display: none.
        className="fixed inset-x-0 top-16 bottom-auto m-0 h-auto w-full border-0 border-t border-b border-gray-200 bg-white px-4 py-3 text-ink shadow-md md:hidden"
      >
        <div className="flex flex-col items-stretch gap-1">{items}</div>
      </nav>
    </header>
  );
}

export function CarIcon({ className = "h-5 w-5" }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <path d="M5 11l1.6-4.2A2 2 0 0 1 8.5 5.5h7a2 2 0 0 1 1.9 1.3L19 11h.5A1.5 1.5 0 0 1 21 12.5V17a1 1 0 0 1-1 1h-1v1a1 1 0 0 1-2 0v-1H7v1a1 1 0 0 1-2 0v-1H4a1 1 0 0 1-1-1v-4.5A1.5 1.5 0 0 1 4.5 11zm2.2 0h9.6l-1.2-3.2a.5.5 0 0 0-.5-.3h-6.2a.5.5 0 0 0-.5.3zM7 15.5a1.25 1.25 0 1 0 0-2.5 1.25 1.25 0 0 0 0 2.5zm10 0a1.25 1.25 0 1 0 0-2.5 1.25 1.25 0 0 0 0 2.5z" />
    </svg>
  );
}
