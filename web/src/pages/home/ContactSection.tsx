import type { ContactResponse } from "@lease/contracts";
import { apiRequest } from "../../api/client";
import { useCompanySettings } from "../../api/public";
import { useNotice } from "../../components/notice";
import { buttonClass, Field, Honeypot, Section, SectionHeading } from "../../components/ui";
import { COMPANY_FALLBACKS, companyDetails, registrationLines, telHref } from "../../lib/company";
import { useEarlyInput } from "../../lib/early-input";
import { useHydrated } from "../../lib/hydrated";
import {
  EMPTY_CONTACT,
  checkContact,
  focusFirstError,
  serverFieldErrors,
  type ContactValues,
} from "../../lib/forms";
import { LEASE_REQUEST_FAILED_FALLBACK } from "./LeaseRequestSection";
import { formSession } from "../../lib/tracking";
import { useForm } from "../../lib/use-form";

export function ContactSection() {
  const company = companyDetails(useCompanySettings());
  return (
    <Section id="contact" labelledBy="contact-titel">
      <SectionHeading
        id="contact-titel"
        title="Contact"
        intro="Liever eerst even overleggen? Bel, mail of stuur een bericht. Wij denken graag met u mee."
      />
      <div className="grid gap-8 lg:grid-cols-2">
        <div className="space-y-6">
          <dl className="grid gap-6 sm:grid-cols-2">
            <ContactItem title="Telefoon">
              {company.phone ? (
                <a
                  href={telHref(company.phone)}
                  className="font-semibold text-primary-strong hover:underline"
                >
                  {company.phone}
                </a>
              ) : (
                COMPANY_FALLBACKS.phone
              )}
              <span className="block text-sm text-muted">Werkdagen 9:00 - 17:30</span>
            </ContactItem>
            <ContactItem title="E-mail">
              {company.email ? (
                <a
                  href={`mailto:${company.email}`}
                  className="font-semibold break-all text-primary-strong hover:underline"
                >
                  {company.email}
                </a>
              ) : (
                COMPANY_FALLBACKS.email
              )}
              <span className="block text-sm text-muted">Antwoord binnen 4 uur op werkdagen</span>
            </ContactItem>
            <ContactItem title="Adres">
              <span className="block">{company.name}</span>
              <span className="block">{company.address ?? COMPANY_FALLBACKS.address}</span>
              {(company.postalCode || company.city) && (
                <span className="block">{[company.postalCode, company.city].filter(Boolean).join(" ")}</span>
              )}
            </ContactItem>
            <ContactItem title="Bedrijfsgegevens">
              {registrationLines(company).map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </ContactItem>
          </dl>
          <div className="rounded-card bg-gray-50 p-6 ring-1 ring-gray-200">
            <h3 className="font-semibold text-ink">Altijd bereikbaar</h3>
            <p className="mt-2 text-muted">
              Lease-klanten met pech of schade bereiken ons 24/7 via het noodnummer in hun contract. Een
              nieuwe aanvraag beantwoorden wij binnen 24 uur.
            </p>
          </div>
        </div>
        <ContactForm />
      </div>
    </Section>
  );
}

function ContactItem({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="rounded-card border border-gray-200 p-5">
      <dt className="text-sm font-semibold tracking-wide text-muted uppercase">{title}</dt>
      <dd className="mt-2 text-ink">{children}</dd>
    </div>
  );
}

/** The visible fields by element id (the honeypot is left to bots). */
const FIELD_IDS = {
  name: "contact-naam",
  email: "contact-email",
  phone: "contact-telefoon",
  message: "contact-bericht",
} satisfies Partial<Record<keyof ContactValues, string>>;

function ContactForm() {
  const { notify } = useNotice();
  const form = useForm({
    initial: EMPTY_CONTACT,
    validate: (values) => checkContact(values).fieldErrors,
    // A field that is being corrected loses its message (as in the quote form).
    recheck: () => ({}),
    submit: (values) =>
      apiRequest<ContactResponse>("POST", "/api/contact", { ...checkContact(values).body, ...formSession() }),
    // Back to empty fields once sent.
    onSuccess: () =>
      notify({
        title: "Bericht Verzonden",
        description: "Bedankt voor uw bericht. Wij reageren op werkdagen binnen 4 uur.",
      }),
    // A field the server refused (e.g. a message over 5000 characters) is marked at the field too.
    serverErrors: (error) => serverFieldErrors(error, FIELD_IDS),
    onInvalid: (errors) => focusFirstError(errors, FIELD_IDS),
    failure: { title: "Fout bij Versturen", fallback: LEASE_REQUEST_FAILED_FALLBACK },
  });
  const { values, errors } = form;
  const hydrated = useHydrated();
  useEarlyInput(FIELD_IDS, form.change);
  const set = (field: keyof ContactValues) => (event: { target: { value: string } }) =>
    form.set(field, event.target.value);

  return (
    <form
      noValidate
      onSubmit={form.onSubmit}
      className="relative space-y-5 rounded-card bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8"
      aria-labelledby="contactformulier-titel"
      aria-describedby="contact-verplicht"
    >
      <h3 id="contactformulier-titel" className="text-xl font-semibold text-ink">
        Stuur ons een bericht
      </h3>
      <p id="contact-verplicht" className="text-sm text-muted">
        Velden met een * zijn verplicht.
      </p>
      <Field id="contact-naam" label="Naam" required error={errors.name}>
        {(props) => (
          <input {...props} type="text" autoComplete="name" value={values.name} onChange={set("name")} />
        )}
      </Field>
      <div className="grid gap-5">
        <Field id="contact-email" label="E-mailadres" required error={errors.email}>
          {(props) => (
            <input
              {...props}
              type="email"
              autoComplete="email"
              value={values.email}
              onChange={set("email")}
            />
          )}
        </Field>
        <Field id="contact-telefoon" label="Telefoonnummer (optioneel)" error={errors.phone}>
          {(props) => (
            <input {...props} type="tel" autoComplete="tel" value={values.phone} onChange={set("phone")} />
          )}
        </Field>
      </div>
      <Field id="contact-bericht" label="Bericht" required error={errors.message}>
        {(props) => <textarea {...props} rows={4} value={values.message} onChange={set("message")} />}
      </Field>
      <Honeypot id="contact-website" value={values.website} onChange={set("website")} />
      <button type="submit" className={buttonClass("primary", "w-full")} disabled={!hydrated || form.pending}>
        {form.pending ? "Versturen..." : "Bericht Versturen"}
      </button>
    </form>
  );
}
