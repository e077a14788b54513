import type { ContactBody, CreateLeaseRequestInput } from "@lease/contracts";
import { fieldErrors } from "../api/client";
import {
  CAR_URL_MESSAGE,
  EMAIL_MESSAGE,
  MESSAGE_MIN_MESSAGE,
  PHONE_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
} from "./constants";

// Client-side checks of the public forms, mirroring CreateLeaseRequestBody and ContactBody so
// the public bundle needs no zod; forms.test.ts runs both against the same samples. The server
// validates with the schemas themselves.

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/**
 * After a refused submit, puts the cursor in the first field (in the form's order, `ids`) that has
 * an error, so keyboard and screen-reader users land on what needs fixing.
 */
/**
 * The server's messages (a 400 validation_failed answer) for the form's own fields, by the field
 * ids' keys; fields the form does not show are left to the notice.
 */
export function serverFieldErrors<K extends string>(
  error: unknown,
  ids: Partial<Record<K, string>>,
): FieldErrors<K> {
  const fields = fieldErrors(error);
  const known: FieldErrors<K> = {};
  for (const key of Object.keys(ids) as K[]) if (fields[key]) known[key] = fields[key];
  return known;
}

export function focusFirstError<K extends string>(
  errors: FieldErrors<K>,
  ids: Partial<Record<K, string>>,
): void {
  for (const [key, id] of Object.entries(ids) as [K, string][]) {
    if (errors[key] && id) {
      document.getElementById(id)?.focus();
      return;
    }
  }
}

export interface LeaseRequestValues {
  carUrl: string;
  contactNumber: string;
  email: string;
  companyName: string;
  leaseTerm: string;
  message: string;
  website: string;
}

export const EMPTY_LEASE_REQUEST: LeaseRequestValues = {
  carUrl: "",
  contactNumber: "",
  email: "",
  companyName: "",
  leaseTerm: "",
  message: "",
  website: "",
};

function hasControlChars(value: string): boolean {
  return [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
}

/** Absolute http(s) URL with a host (the contracts' isSafeHttpUrl rule). */
export function isHttpUrl(value: string): boolean {
  if (value.length === 0 || value.length > 2048 || /\s/.test(value) || hasControlChars(value)) return false;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The contract's withUrlScheme: "www.autoscout24.nl/…" as typed becomes "https://www.autoscout24.nl/…". */
export function withUrlScheme(value: string): string {
  const text = value.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return value;
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(:\d+)?([/?#]\S*)?$/i.test(text) ? `https://${text}` : value;
}

export function isEmailAddress(value: string): boolean {
  return (
    value.length <= 254 &&
    /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/.test(value)
  );
}

export function isPhoneNumber(value: string): boolean {
  return value.length >= 10 && value.length <= 32 && /^[0-9 +()-]+$/.test(value);
}

/** The fields that can carry a message: the client checks the first three, the server all of them. */
export type LeaseRequestField =
  "carUrl" | "contactNumber" | "email" | "companyName" | "leaseTerm" | "message";

export interface LeaseRequestCheck {
  /** "Vul alle verplichte velden in" when a required field is empty. */
  formError: string | null;
  fieldErrors: FieldErrors<LeaseRequestField>;
  body: CreateLeaseRequestInput | null;
}

export function checkLeaseRequest(values: LeaseRequestValues): LeaseRequestCheck {
  const carUrl = withUrlScheme(values.carUrl.trim());
  const contactNumber = values.contactNumber.trim();
  const email = values.email.trim();
  const fieldErrors: FieldErrors<LeaseRequestField> = {};
  if (carUrl && !isHttpUrl(carUrl)) fieldErrors.carUrl = CAR_URL_MESSAGE;
  if (contactNumber && !isPhoneNumber(contactNumber)) fieldErrors.contactNumber = PHONE_MESSAGE;
  if (email && !isEmailAddress(email)) fieldErrors.email = EMAIL_MESSAGE;
  const formError = !carUrl || !contactNumber || !email ? REQUIRED_FIELDS_MESSAGE : null;
  if (formError || Object.keys(fieldErrors).length > 0) return { formError, fieldErrors, body: null };
  const body: CreateLeaseRequestInput = { carUrl, contactNumber, email, website: values.website };
  if (values.companyName.trim()) body.companyName = values.companyName.trim();
  if (values.leaseTerm) body.leaseTerm = Number(values.leaseTerm);
  if (values.message.trim()) body.message = values.message.trim();
  return { formError: null, fieldErrors: {}, body };
}

export interface ContactValues {
  name: string;
  email: string;
  phone: string;
  message: string;
  website: string;
}

export const EMPTY_CONTACT: ContactValues = { name: "", email: "", phone: "", message: "", website: "" };
export const NAME_REQUIRED_MESSAGE = "Naam is verplicht";

export function checkContact(values: ContactValues): {
  fieldErrors: FieldErrors<"name" | "email" | "phone" | "message">;
  body: ContactBody | null;
} {
  const name = values.name.trim();
  const email = values.email.trim();
  const phone = values.phone.trim();
  const message = values.message.trim();
  const fieldErrors: FieldErrors<"name" | "email" | "phone" | "message"> = {};
  if (!name) fieldErrors.name = NAME_REQUIRED_MESSAGE;
  if (!isEmailAddress(email)) fieldErrors.email = EMAIL_MESSAGE;
  if (phone && !isPhoneNumber(phone)) fieldErrors.phone = PHONE_MESSAGE;
  if (message.length < 10) fieldErrors.message = MESSAGE_MIN_MESSAGE;
  if (Object.keys(fieldErrors).length > 0) return { fieldErrors, body: null };
  return {
    fieldErrors,
    body: { name, email, ...(phone ? { phone } : {}), message, website: values.website },
  };
}
