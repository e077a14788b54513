import { createSign } from "node:crypto";
import {
  GOOGLE_ADS_TIME_ZONE,
  GOOGLE_CLICK_ID_REGEX,
  type GoogleCredentials,
  type MatchKey,
} from "@lease/contracts";
import { phoneE164 } from "@lease/platform";
import { sha256, type ConversionInput, type PlatformRequest } from "./payloads";

// Google: the Data Manager API's event ingestion (POST {base}/v1/events:ingest,
// developers.google.com/data-manager/api/reference/rest/v1/events/ingest), which Google now
// recommends for offline conversions and enhanced conversions for leads instead of the Google Ads
// API's UploadClickConversions (services/conversions/README.md, "Google"). One event per request:
//   destinations: [{ operatingAccount: { accountType: "GOOGLE_ADS", accountId: <customer id> },
//                    productDestinationId: <the event's conversion action id> }]
//   encoding: "HEX" (the hashed user identifiers are hex-encoded SHA-256)
//   events[0]: transactionId (the event's id: a resend counts once), eventTimestamp (RFC 3339 with
//     Amsterdam's offset), eventSource "WEB", adIdentifiers { gclid | wbraid | gbraid } when the
//     page had one, userData.userIdentifiers [{ emailAddress }, { phoneNumber }] hashed, consent
//     { adUserData, adPersonalization: "CONSENT_GRANTED" } (only leads with marketing consent are
//     ever sent), conversionValue + currency "EUR" for getekend.
//   validateOnly: true for a test event (validated, not counted).
// Normalisation as Google's own formatter (googleads/data-manager-* UserDataFormatter) does it:
// e-mail trimmed and lower-cased, and for gmail.com and googlemail.com everything from a "+" on and
// every "." dropped from the name; phone in E.164 ("+31612345678"); then SHA-256, hex.

export const GOOGLE_SCOPE = "https://www.googleapis.com/auth/datamanager";
export const CONSENT_GRANTED = "CONSENT_GRANTED";

/** An e-mail as Google hashes it: trimmed, lower-case, and Gmail's dots and "+tags" dropped. */
export function googleEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at <= 0) return lower;
  const domain = lower.slice(at + 1);
  let name = lower.slice(0, at);
  if (domain === "gmail.com" || domain === "googlemail.com") name = name.split("+")[0]!.replaceAll(".", "");
  return `${name}@${domain}`;
}

const AMSTERDAM_PARTS = new Intl.DateTimeFormat("en-GB", {
  timeZone: GOOGLE_ADS_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZoneName: "longOffset",
});

/** "2026-07-01T14:00:00+02:00": the moment in Amsterdam's local time with its offset (RFC 3339). */
export function googleTime(iso: string): string {
  const p = Object.fromEntries(AMSTERDAM_PARTS.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  // longOffset is "GMT+02:00" (or "GMT" at offset 0).
  const offset = String(p.timeZoneName).replace("GMT", "") || "+00:00";
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`;
}

const issued = (id: string | undefined): id is string => id !== undefined && GOOGLE_CLICK_ID_REGEX.test(id);

/** The click's id as Google takes one: the gclid, else the wbraid (iOS web), else the gbraid. */
function adIdentifiers(input: ConversionInput): Record<string, string> | undefined {
  const ids = input.lead.clickIds;
  if (!ids) return undefined;
  if (issued(ids.gclid)) return { gclid: ids.gclid };
  if (issued(ids.wbraid)) return { wbraid: ids.wbraid };
  if (issued(ids.gbraid)) return { gbraid: ids.gbraid };
  return undefined;
}

export function googleRequest(
  input: ConversionInput,
  opts: {
    baseUrl: string;
    customerId: string;
    conversionActionId: string;
    accessToken: string;
    validateOnly?: boolean;
  },
): PlatformRequest {
  const { lead } = input;
  const phone = phoneE164(lead.phone);
  const click = adIdentifiers(input);
  const identifiers = [
    { emailAddress: sha256(googleEmail(lead.email)) },
    ...(phone ? [{ phoneNumber: sha256(phone) }] : []),
  ];
  const keys: MatchKey[] = [
    "email",
    ...(phone ? ["phone" as const] : []),
    ...(click ? ["click_id" as const] : []),
  ];
  return {
    url: `${opts.baseUrl.replace(/\/+$/, "")}/v1/events:ingest`,
    headers: { "content-type": "application/json", authorization: `Bearer ${opts.accessToken}` },
    body: {
      destinations: [
        {
          operatingAccount: { accountType: "GOOGLE_ADS", accountId: opts.customerId },
          productDestinationId: opts.conversionActionId,
        },
      ],
      encoding: "HEX",
      ...(opts.validateOnly ? { validateOnly: true } : {}),
      events: [
        {
          transactionId: input.eventId,
          eventTimestamp: googleTime(input.at),
          eventSource: "WEB",
          ...(click ? { adIdentifiers: click } : {}),
          userData: { userIdentifiers: identifiers },
          consent: { adUserData: CONSENT_GRANTED, adPersonalization: CONSENT_GRANTED },
          ...(input.valueCents !== null
            ? { conversionValue: Math.round(input.valueCents) / 100, currency: "EUR" }
            : {}),
        },
      ],
    },
    matchKeys: keys,
  };
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

/**
 * A service account's token request assertion (RFC 7523, as Google's OAuth 2.0 for server to
 * server applications documents): a JWT signed RS256 with the key's private key, iss = the
 * account's e-mail, scope, aud = the token endpoint, valid one hour.
 */
export function serviceAccountAssertion(
  credentials: Extract<GoogleCredentials, { kind: "serviceAccount" }>,
  tokenUrl: string,
  nowSeconds: number,
): string {
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const claims = base64url(
    JSON.stringify({
      iss: credentials.clientEmail,
      scope: GOOGLE_SCOPE,
      aud: tokenUrl,
      iat: nowSeconds,
      exp: nowSeconds + 3600,
    }),
  );
  const signature = createSign("RSA-SHA256").update(`${header}.${claims}`).sign(credentials.privateKey);
  return `${header}.${claims}.${base64url(signature)}`;
}

/** The token request's form: the JWT bearer grant for a service account, else the refresh token grant. */
export function tokenRequestBody(credentials: GoogleCredentials, tokenUrl: string, nowSeconds: number) {
  if (credentials.kind === "serviceAccount")
    return new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: serviceAccountAssertion(credentials, tokenUrl, nowSeconds),
    });
  return new URLSearchParams({
    grant_type: "refresh_token",
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    refresh_token: credentials.refreshToken,
  });
}
