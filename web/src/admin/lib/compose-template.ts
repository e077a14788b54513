import { DEFAULT_COMPANY_NAME, type LeaseRequest, type AdminCompanySettings } from "@lease/contracts";

export const SUBJECT_PREFIX = "Follow-up op uw lease aanvraag - ";
export const OWN_TEXT_PLACEHOLDER = "[Voeg hier uw persoonlijke bericht toe]";

type Company = Pick<
  AdminCompanySettings,
  "companyName" | "phoneNumber" | "emailAddress" | "address" | "city"
>;
type Request = Pick<LeaseRequest, "email" | "companyName" | "carUrl">;

export interface ComposeDraft {
  to: string;
  subject: string;
  message: string;
}

const filled = (value: string | null | undefined): string | undefined => value?.trim() || undefined;

/** The company name to sign with: the configured one, or the default company name. */
export function senderCompanyName(company: Pick<AdminCompanySettings, "companyName"> | undefined): string {
  return filled(company?.companyName) ?? DEFAULT_COMPANY_NAME;
}

/** SPEC §2 pre-fill of the compose page for a lease request. */
export function composeTemplate(request: Request, company: Company): ComposeDraft {
  const ownName = senderCompanyName(company);
  const lines = [
    `Beste ${filled(request.companyName) ?? "klant"},`,
    "",
    `Bedankt voor uw lease aanvraag voor de volgende auto: ${request.carUrl}`,
    "",
    OWN_TEXT_PLACEHOLDER,
    "",
    "Heeft u vragen? Neem gerust contact met ons op.",
  ];
  const phone = filled(company.phoneNumber);
  const email = filled(company.emailAddress);
  if (phone) lines.push(`Telefoon: ${phone}`);
  if (email) lines.push(`E-mail: ${email}`);
  lines.push("", "Met vriendelijke groet,", "", ownName);
  const address = filled(company.address);
  const city = filled(company.city);
  if (address && city) lines.push(`${address}, ${city}`);
  return { to: request.email, subject: `${SUBJECT_PREFIX}${ownName}`, message: lines.join("\n") };
}

/** The company details the compose page says are added automatically (only those that are set). */
export function companyDetailLines(company: Company | undefined): string[] {
  const lines = [senderCompanyName(company)];
  const address = filled(company?.address);
  const city = filled(company?.city);
  if (address && city) lines.push(`${address}, ${city}`);
  const phone = filled(company?.phoneNumber);
  if (phone) lines.push(`Telefoon: ${phone}`);
  const email = filled(company?.emailAddress);
  if (email) lines.push(`E-mail: ${email}`);
  return lines;
}
