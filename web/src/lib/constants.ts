import type { ThemeValues } from "@lease/contracts";

// Values mirrored from @lease/contracts for the public bundle. Importing any value from the contracts
// package pulls in every zod schema (~30 KB gzipped) because schema construction is not tree-shakable;
// pages only need these few constants, so they live here and constants.test.ts proves they match.
// The schemas themselves are imported lazily where a form is submitted.

export const DEFAULT_COMPANY_NAME = "Zakelijk Lease Centrum";
export const INSURANCE_MONTHLY = 150;
export const MAINTENANCE_MONTHLY = 120;
export const LEASE_TERMS = [24, 36, 48, 60] as const;
export const CALCULATOR_TERMS = [24, 36, 48, 60, 72] as const;
export const VISITOR_SESSION_STORAGE_KEY = "visitor-session";
export const SESSION_ID_REGEX = /^session-[A-Za-z0-9]+-\d{10,16}$/;

export const THEME_DEFAULTS: ThemeValues = {
  primaryColor: "#EA580C",
  primaryHover: "#DC2626",
  accentColor: "#10B981",
  backgroundGradientStart: "#1E40AF",
  backgroundGradientEnd: "#7C3AED",
  textPrimary: "#111827",
  textSecondary: "#6B7280",
  buttonRadius: "8px",
  cardRadius: "12px",
};

// Client-side messages (the same texts as the contracts' field messages).
export const CAR_URL_MESSAGE = "Voer een geldige auto URL in";
export const PHONE_MESSAGE = "Voer een geldig telefoonnummer in";
export const EMAIL_MESSAGE = "Voer een geldig e-mailadres in";
export const REQUIRED_FIELDS_MESSAGE = "Vul alle verplichte velden in";
export const MESSAGE_MIN_MESSAGE = "Bericht moet minimaal 10 karakters bevatten";

/** The ad platforms' click id query parameters the quote form reports (the contracts' CLICK_ID_PARAMS). */
export const CLICK_ID_PARAMS = ["gclid", "gbraid", "wbraid", "fbclid", "ttclid", "ScCid"] as const;
/** The click ids the server takes (the contracts' GOOGLE_CLICK_ID_REGEX and CLICK_ID_REGEX). */
export const GOOGLE_CLICK_ID_PARAMS: readonly string[] = ["gclid", "gbraid", "wbraid"];
export const GOOGLE_CLICK_ID_REGEX = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,499}$/;
export const CLICK_ID_REGEX = /^[A-Za-z0-9._~][A-Za-z0-9._~-]{0,499}$/;
/** The Meta pixel's _fbp cookie as the server takes it (the contracts' FBP_REGEX). */
export const FBP_REGEX = /^fb\.[0-2]\.\d{10,13}\.\d{1,20}$/;
