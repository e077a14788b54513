import { TEST_EMAIL_TIMEOUT_MS } from "@lease/contracts";

/** Stored as last_error when no provider key or sender is configured. */
export const NOT_CONFIGURED_ERROR = "mail_not_configured";
/** Stored as last_error when the admin cancelled an e-mail before it was sent. */
export const CANCELLED_ERROR = "cancelled_by_admin";
export const CANCELLED_MESSAGE = "Verzenden geannuleerd: deze e-mail is niet verzonden.";
/** Stored as last_error when the stored provider key cannot be decrypted (the secret changed). */
export const KEY_UNREADABLE_ERROR = "mail_key_unreadable";
/** The panel's status of such a key (E-mail Instellingen) and the reason of every send it stops. */
export const MAIL_KEY_UNREADABLE_MESSAGE =
  "De opgeslagen API key kan niet worden gelezen — voer hem opnieuw in bij E-mail Instellingen.";
export const UNKNOWN_OUTCOME_ERROR =
  "unknown_outcome: the worker stopped while the provider call was in flight";
export const MAIL_NOT_CONFIGURED_MESSAGE =
  "Er is geen e-mailprovider ingesteld. Vul de SendGrid API key en het afzenderadres in bij E-mail Instellingen.";
/** The test button's answers (E-mail Instellingen). */
export const MISSING_MAIL_SETTINGS_MESSAGE =
  "Ontbrekende gegevens - Vul eerst SendGrid API key en afzender e-mail in.";
export const TEST_EMAIL_FAILED_MESSAGE = "Kon geen test e-mail verzenden.";
export const SETTINGS_UNAVAILABLE_MESSAGE =
  "De e-mailinstellingen zijn tijdelijk niet bereikbaar. Probeer het zo opnieuw.";

/** Prefixes that wrap the provider's answer on its way through retries. */
const WRAPPERS = [/^gave up after retries: /, /^send failed, will retry: /];

/**
 * What the admin reads about an e-mail that was not sent: last_error (technical, English, as the
 * worker stored it) said in Dutch, with SendGrid's own words where it gave any.
 */
export function failureReason(lastError: string | null): string | null {
  if (lastError === null) return null;
  let error = lastError;
  let gaveUp = false;
  for (let changed = true; changed;) {
    changed = false;
    for (const wrapper of WRAPPERS) {
      if (!wrapper.test(error)) continue;
      if (wrapper === WRAPPERS[0]) gaveUp = true;
      error = error.replace(wrapper, "");
      changed = true;
    }
  }
  const reason = describe(error);
  return gaveUp ? `Na herhaalde pogingen niet verzonden. ${reason}` : reason;
}

function describe(error: string): string {
  if (error.startsWith(NOT_CONFIGURED_ERROR)) return MAIL_NOT_CONFIGURED_MESSAGE;
  if (error.startsWith(KEY_UNREADABLE_ERROR)) return MAIL_KEY_UNREADABLE_MESSAGE;
  if (error.startsWith(CANCELLED_ERROR)) return CANCELLED_MESSAGE;
  if (error.startsWith("unknown_outcome"))
    return "Het verzenden werd onderbroken; onbekend is of de e-mail is aangekomen. Controleer dit voor u opnieuw verstuurt.";
  const answered = /^provider answered (\d{3})(?:: ([\s\S]*))?$/.exec(error);
  if (answered) {
    const status = Number(answered[1]);
    const detail = answered[2] ? ` SendGrid meldt: "${answered[2]}".` : "";
    if (status === 401 || status === 403)
      return `SendGrid weigerde de API key (${status}). Controleer de key bij E-mail Instellingen.${detail}`;
    if (status === 429) return `SendGrid nam tijdelijk geen e-mail aan: te veel verzoeken (429).${detail}`;
    if (status >= 500) return `SendGrid had een storing (${status}).${detail}`;
    return `SendGrid weigerde de e-mail (${status}).${detail}`;
  }
  if (/^timed out after \d+ ms/.test(error) || /^provider unreachable: .*time/i.test(error))
    return `SendGrid antwoordde niet binnen ${TEST_EMAIL_TIMEOUT_MS / 1000} seconden.`;
  if (error.startsWith("provider unreachable"))
    return "SendGrid was niet bereikbaar (netwerkfout). Controleer de internetverbinding van de server.";
  if (error.startsWith("line break in a header field"))
    return "Het onderwerp of een adres bevat een regeleinde.";
  return `Verzenden mislukt (${error.slice(0, 200)}).`;
}
