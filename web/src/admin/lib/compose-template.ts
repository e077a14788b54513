import {
  COMPOSE_OWN_TEXT_PLACEHOLDER,
  DEFAULT_COMPANY_NAME,
  companyFooterLines,
  type CompanyFooterFields,
  type LeaseRequest,
  type AdminCompanySettings,
} from "@lease/contracts";

export const SUBJECT_PREFIX = "Follow-up op uw lease aanvraag - ";
export const OWN_TEXT_PLACEHOLDER = COMPOSE_OWN_TEXT_PLACEHOLDER;

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

/**
 * Pre-fill of the compose page for a lease request. The company's name, address, phone
 * and e-mail are not in it: the mailer adds them below every message (companyDetailLines), and in
 * the body too they would reach the customer twice.
 */
export function composeTemplate(request: Request, company: Company): ComposeDraft {
  const ownName = senderCompanyName(company);
  const lines = [
    `Beste ${filled(request.companyName) ?? "klant"},`,
    "",
    `Bedankt voor uw lease aanvraag voor de volgende auto: ${request.carUrl}`,
    "",
    OWN_TEXT_PLACEHOLDER,
    "",
    "Heeft u vragen? Neem gerust contact met ons op; onze gegevens staan onder dit bericht.",
    "",
    "Met vriendelijke groet,",
  ];
  return { to: request.email, subject: `${SUBJECT_PREFIX}${ownName}`, message: lines.join("\n") };
}

/** The company details the compose page says are added automatically: the mailer's own lines. */
export function companyDetailLines(company: Partial<CompanyFooterFields> | undefined): string[] {
  return companyFooterLines(company);
}
