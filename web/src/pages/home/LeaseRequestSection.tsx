import { useEffect, useRef, useState, type FormEvent } from "react";
import type { CreateLeaseRequestResponse } from "@lease/contracts";
import { apiRequest } from "../../api/client";
import { useNotice } from "../../components/notice";
import { buttonClass, CheckIcon, Field, Honeypot, Section, SectionHeading } from "../../components/ui";
import { LEASE_TERMS } from "../../lib/constants";
import { useEarlyInput } from "../../lib/early-input";
import { useHydrated } from "../../lib/hydrated";
import {
  EMPTY_LEASE_REQUEST,
  checkLeaseRequest,
  focusFirstError,
  serverFieldErrors,
  withUrlScheme,
  type LeaseRequestField,
  type LeaseRequestValues,
} from "../../lib/forms";
import { formMarketing } from "../../lib/marketing";
import { trackPixelLead } from "../../lib/pixels";
import { formSession } from "../../lib/tracking";
import { useForm, type FormErrors } from "../../lib/use-form";

export const LEASE_REQUEST_FAILED_FALLBACK =
  "Er is een onverwachte fout opgetreden. Probeer het opnieuw of neem contact op via telefoon.";

/** The visible fields by element id (the honeypot is left to bots). */
const FIELD_IDS = {
  carUrl: "aanvraag-auto",
  contactNumber: "aanvraag-telefoon",
  email: "aanvraag-email",
  companyName: "aanvraag-bedrijf",
  leaseTerm: "aanvraag-looptijd",
  message: "aanvraag-bericht",
} satisfies Partial<Record<keyof LeaseRequestValues, string>>;
const REQUIRED_FIELDS: LeaseRequestField[] = ["carUrl", "contactNumber", "email"];
/** Under each required field left empty, beside the form's "Vul alle verplichte velden in". */
export const FIELD_REQUIRED_MESSAGE = "Dit veld is verplicht";

/** Each required field left empty, marked beside the form's "Vul alle verplichte velden in". */
function checkFields(values: LeaseRequestValues): FormErrors {
  const empty = Object.fromEntries(
    REQUIRED_FIELDS.filter((key) => !values[key].trim()).map((key) => [key, FIELD_REQUIRED_MESSAGE]),
  );
  return { ...empty, ...checkLeaseRequest(values).fieldErrors };
}

export function LeaseRequestSection() {
  const { notify } = useNotice();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const hydrated = useHydrated();
  const thanks = useRef<HTMLHeadingElement>(null);
  const thanksPanel = useRef<HTMLDivElement>(null);
  // Where focus goes once the form or the thanks replaces the other (null: leave it where it is).
  const [focusAfter, setFocusAfter] = useState<"thanks" | "form" | null>(null);
  const form = useForm({
    initial: EMPTY_LEASE_REQUEST,
    validate: checkFields,
    // A field that is being corrected loses its message.
    recheck: () => ({}),
    submit: (values) =>
      apiRequest<CreateLeaseRequestResponse>("POST", "/api/lease-requests", {
        ...checkLeaseRequest(values).body,
        ...formSession(),
        ...formMarketing(),
      }),
    onSuccess: (created) => {
      // The confirmation's Lead event for the pixels (loaded only with marketing consent), with the
      // id the server sends to the same platforms.
      if (created.eventId) trackPixelLead(created.eventId);
      setSent(true);
      setFocusAfter("thanks");
      notify({
        title: "Aanvraag Succesvol Verzonden!",
        description:
          "Bedankt voor uw interesse. Wij nemen binnen 24 uur contact met u op voor een vrijblijvende offerte.",
      });
    },
    // A field the server refused (e.g. a message over 5000 characters) is marked at the field too.
    serverErrors: (error) => serverFieldErrors(error, FIELD_IDS),
    onInvalid: (errors) => focusFirstError(errors, FIELD_IDS),
    failure: { title: "Fout bij Versturen", fallback: LEASE_REQUEST_FAILED_FALLBACK },
  });
  const { values, errors } = form;
  useEarlyInput(FIELD_IDS, form.change);

  useEffect(() => {
    if (!focusAfter) return;
    const target = focusAfter === "thanks" ? thanks.current : document.getElementById(FIELD_IDS.carUrl);
    setFocusAfter(null);
    if (!target) return;
    // Below the sticky header (scroll-margin-top), not under it, also on a phone: the whole thanks
    // panel from its check icon, not only its heading.
    const shown = focusAfter === "thanks" ? (thanksPanel.current ?? target) : target;
    shown.scrollIntoView({ block: "start", behavior: "instant" });
    target.focus({ preventScroll: true });
  }, [focusAfter]);

  // A field that is being corrected loses its message; the form's alert goes once all are filled.
  const set = (field: keyof LeaseRequestValues) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    form.set(field, value);
    const next = { ...values, [field]: value };
    if (formError && REQUIRED_FIELDS.every((key) => next[key].trim())) setFormError(null);
  };

  const reset = () => {
    form.cancel();
    setFormError(null);
    if (sent) setFocusAfter("form");
    setSent(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.pending) return;
    setFormError(checkLeaseRequest(values).formError);
    void form.submit();
  };

  return (
    <Section id="aanvraag" labelledBy="aanvraag-titel" className="bg-gray-50">
      <SectionHeading
        id="aanvraag-titel"
        title="Vrijblijvend Lease Aanvragen"
        intro="Heeft u een auto gevonden? Stuur ons de link en uw gegevens. U ontvangt binnen 24 uur een persoonlijke, vrijblijvende offerte."
      />
      <div className="mx-auto max-w-3xl rounded-card bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-10">
        {sent ? (
          <div
            ref={thanksPanel}
            id="aanvraag-succes"
            className="scroll-mt-24 text-center"
            data-testid="aanvraag-succes"
          >
            <span className="mx-auto grid h-14 w-14 place-items-center rounded-full bg-accent text-white">
              <CheckIcon className="h-8 w-8 text-white" />
            </span>
            <h3
              ref={thanks}
              id="aanvraag-bedankt"
              tabIndex={-1}
              className="mt-5 text-2xl font-bold text-ink focus:outline-none"
            >
              Bedankt voor uw aanvraag!
            </h3>
            <p className="mt-3 text-muted">
              Wij hebben uw aanvraag goed ontvangen. Uw vaste adviseur neemt binnen 24 uur contact met u op
              voor een vrijblijvende offerte.
            </p>
            <button type="button" className={buttonClass("primary", "mt-8")} onClick={reset}>
              Nieuwe Aanvraag
            </button>
          </div>
        ) : (
          <form
            noValidate
            onSubmit={submit}
            aria-describedby="aanvraag-verplicht"
            className="relative space-y-6"
          >
            <p id="aanvraag-verplicht" className="text-sm text-muted">
              Velden met een * zijn verplicht.
            </p>
            <Field
              id="aanvraag-auto"
              label="Link naar de auto"
              required
              error={errors.carUrl}
              hint="Bijvoorbeeld de advertentie op AutoScout24, Marktplaats of de website van de dealer."
            >
              {(props) => (
                <input
                  {...props}
                  type="url"
                  inputMode="url"
                  placeholder="https://www.voorbeeld.nl/auto/..."
                  value={values.carUrl}
                  onChange={set("carUrl")}
                  onBlur={() => {
                    const carUrl = withUrlScheme(values.carUrl.trim());
                    if (carUrl !== values.carUrl) form.set("carUrl", carUrl);
                  }}
                />
              )}
            </Field>
            <div className="grid gap-6 sm:grid-cols-2">
              <Field id="aanvraag-telefoon" label="Telefoonnummer" required error={errors.contactNumber}>
                {(props) => (
                  <input
                    {...props}
                    type="tel"
                    autoComplete="tel"
                    placeholder="06 12345678"
                    value={values.contactNumber}
                    onChange={set("contactNumber")}
                  />
                )}
              </Field>
              <Field id="aanvraag-email" label="E-mailadres" required error={errors.email}>
                {(props) => (
                  <input
                    {...props}
                    type="email"
                    autoComplete="email"
                    placeholder="naam@bedrijf.nl"
                    value={values.email}
                    onChange={set("email")}
                  />
                )}
              </Field>
              <Field id="aanvraag-bedrijf" label="Bedrijfsnaam (optioneel)" error={errors.companyName}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    autoComplete="organization"
                    value={values.companyName}
                    onChange={set("companyName")}
                  />
                )}
              </Field>
              <Field id="aanvraag-looptijd" label="Gewenste looptijd (optioneel)" error={errors.leaseTerm}>
                {(props) => (
                  <select {...props} value={values.leaseTerm} onChange={set("leaseTerm")}>
                    <option value="">Kies een looptijd</option>
                    {LEASE_TERMS.map((term) => (
                      <option key={term} value={String(term)}>
                        {term} maanden
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
            <Field id="aanvraag-bericht" label="Bericht (optioneel)" error={errors.message}>
              {(props) => (
                <textarea
                  {...props}
                  rows={4}
                  placeholder="Vertel ons bijvoorbeeld over uw onderneming, gewenste aanbetaling of kilometrage."
                  value={values.message}
                  onChange={set("message")}
                />
              )}
            </Field>
            <Honeypot id="aanvraag-website" value={values.website} onChange={set("website")} />
            {formError && (
              <p role="alert" className="rounded-button bg-red-50 px-4 py-3 font-medium text-red-700">
                {formError}
              </p>
            )}
            <div className="flex flex-col gap-3 sm:flex-row">
              <button
                type="submit"
                className={buttonClass("primary", "sm:flex-1")}
                disabled={!hydrated || form.pending}
              >
                {form.pending ? "Versturen..." : "Aanvraag Versturen"}
              </button>
              <button
                type="button"
                className={buttonClass("outline")}
                onClick={reset}
                disabled={form.pending}
              >
                Reset
              </button>
            </div>
            <p className="text-sm text-muted">
              Uw aanvraag is vrijblijvend. Wij gebruiken uw gegevens alleen om contact met u op te nemen,
              zoals beschreven in ons{" "}
              <a href="/privacy-beleid" className="text-primary-strong underline">
                Privacy Beleid
              </a>
              .
            </p>
          </form>
        )}
      </div>
    </Section>
  );
}
