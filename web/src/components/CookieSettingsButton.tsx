import { openConsentBanner } from "../lib/consent-store";
import { buttonClass } from "./ui";

/** "Cookie Instellingen" of /cookie-beleid: opens the cookie banner again. */
export function CookieSettingsButton() {
  return (
    <button type="button" className={buttonClass("primary")} onClick={openConsentBanner}>
      Cookie Instellingen
    </button>
  );
}
