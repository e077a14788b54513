import type { LeaseRequest } from "@lease/contracts";

/** How far back a quote request looks for an earlier one from the same person (services/leads). */
export const DUPLICATE_DAYS = 90;

const DAY_MS = 24 * 3600 * 1000;
const emailKey = (email: string) => email.trim().toLowerCase();
const phoneKey = (phone: string) => phone.replace(/\D/g, "");

type Compared = Pick<LeaseRequest, "email" | "contactNumber" | "createdAt">;

/**
 * Why a request was marked "Mogelijk dubbel" of an earlier one, as the leads service decided it
 * (the same e-mail address, any case, or the same phone digits, within 90 days): "hetzelfde
 * e-mailadres", "hetzelfde telefoonnummer" or both, and how many days lie between them.
 */
export function duplicateReason(request: Compared, earlier: Compared): { same: string; days: number } {
  const email = emailKey(request.email) === emailKey(earlier.email);
  const phone = phoneKey(request.contactNumber) === phoneKey(earlier.contactNumber);
  const same =
    email && phone
      ? "hetzelfde e-mailadres en telefoonnummer"
      : phone
        ? "hetzelfde telefoonnummer"
        : "hetzelfde e-mailadres";
  const days = Math.max(
    0,
    Math.floor((Date.parse(request.createdAt) - Date.parse(earlier.createdAt)) / DAY_MS),
  );
  return { same, days };
}

/** "vandaag", "1 dag", "12 dagen" eerder. */
export const daysEarlier = (days: number) =>
  days === 0 ? "eerder vandaag" : `${days} ${days === 1 ? "dag" : "dagen"} eerder`;
