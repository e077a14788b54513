import { useEffect, useRef, useState } from "react";
import { Link } from "../lib/link";
import { ACCEPT_ALL, NECESSARY_ONLY, type ConsentChoice } from "../lib/consent";
import { saveConsent, useConsent } from "../lib/consent-store";
import { Button } from "./ui";

/**
 * First-visit cookie banner; reopened by "Cookie-instellingen" in every page's footer and the
 * "Cookie Instellingen" button of /cookie-beleid.
 */
export function CookieBanner() {
  const { choice, bannerOpen } = useConsent();
  if (!bannerOpen) return null;
  // Mounted anew at each opening, so it starts from the choice as saved now.
  return <BannerDialog choice={choice} />;
}

function BannerDialog({ choice }: { choice: ConsentChoice | null }) {
  // Reopened after a choice: its settings at once, with the saved choice ticked.
  const [showSettings, setShowSettings] = useState(choice !== null);
  const [analytics, setAnalytics] = useState(choice?.analytics ?? false);
  const [marketing, setMarketing] = useState(choice?.marketing ?? false);
  const dialog = useRef<HTMLDivElement>(null);
  // Focus moves into the banner when it opens (else it is dozens of Tab presses away) and back to
  // where it was (the button that reopened it) once a choice is made.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus({ preventScroll: true });
    return () => {
      if (before?.isConnected && before !== document.body) before.focus({ preventScroll: true });
    };
  }, []);

  const save = (value: typeof ACCEPT_ALL) => {
    saveConsent(value);
    setShowSettings(false);
  };

  return (
    // At most the screen's height, scrolling inside: with its settings open it is taller than a phone.
    <div
      ref={dialog}
      tabIndex={-1}
      role="dialog"
      aria-modal="false"
      aria-labelledby="cookie-titel"
      className="fixed inset-x-0 bottom-0 z-50 max-h-dvh overflow-y-auto border-t border-gray-200 bg-white px-4 py-5 shadow-[0_-8px_24px_rgba(0,0,0,0.08)] sm:px-6"
    >
      <div className="mx-auto max-w-6xl">
        <h2 id="cookie-titel" className="text-lg font-semibold text-ink">
          Wij gebruiken cookies
        </h2>
        <p className="mt-2 text-sm text-muted">
          Noodzakelijke cookies zorgen dat de website werkt. Wij tellen elk bezoek, maar zonder uw toestemming
          slaan wij daarvoor niets op uw apparaat op. Met uw toestemming bewaren wij ook een bezoekerscode in
          uw browser om terugkerende bezoeken te herkennen (analytisch) en gebruiken wij marketingcookies
          (Meta, Snapchat en TikTok) om relevante advertenties te tonen. Lees meer in ons{" "}
          <Link to="/cookie-beleid" className="text-primary-strong underline">
            Cookie Beleid
          </Link>
          .
        </p>
        {choice && (
          <p className="mt-2 text-sm text-muted" data-testid="cookie-opgeslagen-keuze">
            Uw opgeslagen keuze: analytische cookies {choice.analytics ? "aan" : "uit"}, marketingcookies{" "}
            {choice.marketing ? "aan" : "uit"}. U kunt deze hieronder aanpassen.
          </p>
        )}
        {showSettings && (
          <fieldset className="mt-4 grid gap-3 sm:grid-cols-3">
            <legend className="sr-only">Cookiecategorieën</legend>
            <Category
              id="cookie-noodzakelijk"
              label="Noodzakelijk"
              text="Altijd actief: sessie, formulieren en uw cookiekeuze."
              checked
              disabled
            />
            <Category
              id="cookie-analytisch"
              label="Analytisch"
              text="Een bezoekerscode in uw browser, zodat wij terugkerende bezoeken herkennen en bij uw aanvraag zien hoe u bij ons kwam. Zonder deze toestemming tellen wij uw bezoek zonder iets op te slaan."
              checked={analytics}
              onChange={setAnalytics}
            />
            <Category
              id="cookie-marketing"
              label="Marketing"
              text="Advertentiepixels van Meta, Snapchat en TikTok."
              checked={marketing}
              onChange={setMarketing}
            />
          </fieldset>
        )}
        <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:justify-end">
          {showSettings ? (
            <Button
              size="large"
              variant="outline"
              className="py-2"
              onClick={() => save({ analytics, marketing })}
            >
              Voorkeuren Opslaan
            </Button>
          ) : (
            <Button size="large" variant="outline" className="py-2" onClick={() => setShowSettings(true)}>
              Instellingen
            </Button>
          )}
          <Button size="large" variant="outline" className="py-2" onClick={() => save(NECESSARY_ONLY)}>
            Weigeren
          </Button>
          <Button size="large" variant="primary" className="py-2" onClick={() => save(ACCEPT_ALL)}>
            Accepteren
          </Button>
        </div>
      </div>
    </div>
  );
}

function Category(props: {
  id: string;
  label: string;
  text: string;
  checked: boolean;
  disabled?: boolean;
  onChange?: (checked: boolean) => void;
}) {
  return (
    <label htmlFor={props.id} className="flex gap-3 rounded-card border border-gray-200 p-3 text-sm">
      <input
        id={props.id}
        type="checkbox"
        className="mt-0.5 h-4 w-4 accent-[var(--color-primary)]"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange?.(event.target.checked)}
      />
      <span>
        <span className="block font-semibold text-ink">{props.label}</span>
        <span className="text-muted">{props.text}</span>
      </span>
    </label>
  );
}
