export { adminCookie } from "@lease/platform/testing";

export const validLead = {
  carUrl: "https://www.autoscout24.nl/aanbod/volkswagen-id-4",
  contactNumber: "06 12345678",
  email: "jan@bedrijf.nl",
  companyName: "Bedrijf BV",
  leaseTerm: 48,
  message: "Graag een offerte",
};

/** POSTs JSON; `ip` is sent as X-Forwarded-For (believed because the test runs on a trusted address). */
export function postJson(
  url: string,
  body: unknown,
  ip = "203.0.113.1",
  headers: Record<string, string> = {},
) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip, ...headers },
    body: JSON.stringify(body),
  });
}
