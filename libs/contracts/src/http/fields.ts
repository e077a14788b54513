import { z } from "zod";
import { emptyToNull, emptyToUndefined, isSafeHttpUrl } from "../entities/common";

// Field builders shared by the request bodies. Each keeps one Dutch message per field, because the
// forms show a single message under a field whatever rule failed.

export const CAR_URL_MESSAGE = "Voer een geldige auto URL in";
export const PHONE_MESSAGE = "Voer een geldig telefoonnummer in";
export const EMAIL_MESSAGE = "Voer een geldig e-mailadres in";
export const MESSAGE_MIN_MESSAGE = "Bericht moet minimaal 10 karakters bevatten";
export const REQUIRED_FIELDS_MESSAGE = "Vul alle verplichte velden in";

export const PHONE_MIN_LENGTH = 10;
export const PHONE_MAX_LENGTH = 32;
export const EMAIL_MAX_LENGTH = 254;
export const URL_MAX_LENGTH = 2048;

/** "Maximaal 200 tekens" style message for length limits. */
export const maxLengthMessage = (max: number) => `Maximaal ${max} tekens`;

/** Absolute http(s) URL, trimmed; every failure gives the same message. */
export const httpUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(URL_MAX_LENGTH, { error: message, abort: true })
    .refine(isSafeHttpUrl, { error: message })
    .meta({ format: "uri" });

/** Phone number: trimmed, 10..32 characters of digits, spaces and + ( ) -. */
export const phoneNumber = () =>
  z
    .string({ error: PHONE_MESSAGE })
    .trim()
    .min(PHONE_MIN_LENGTH, { error: PHONE_MESSAGE, abort: true })
    .max(PHONE_MAX_LENGTH, { error: PHONE_MESSAGE, abort: true })
    .regex(/^[0-9 +()-]+$/, { error: PHONE_MESSAGE });

/** E-mail address, trimmed before the format check. */
export const emailAddress = (message = EMAIL_MESSAGE) =>
  z
    .string({ error: message })
    .trim()
    .max(EMAIL_MAX_LENGTH, { error: message, abort: true })
    .pipe(z.email({ error: message }))
    .meta({ format: "email" });

/** Optional field of a create body: "", whitespace and null become undefined (left out). */
export const optionalField = <T extends z.ZodType>(inner: T) =>
  z.preprocess(emptyToUndefined, inner.optional()).optional();

/** Optional field of a partial update: absent keeps the stored value, "" or null clears it. */
export const clearableField = <T extends z.ZodType>(inner: T) =>
  z.preprocess(emptyToNull, inner.nullable()).optional();

/** Trimmed free text with a maximum length. */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: maxLengthMessage(max) });

/** Honeypot: a visually hidden input that people leave empty; a filled value marks a bot. */
export const honeypot = () =>
  z
    .string()
    .max(1000)
    .optional()
    .describe("Honeypot field, hidden from people. A non-empty value marks the sender as a bot.");
