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

export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
}
