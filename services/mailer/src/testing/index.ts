import http from "node:http";
import type { AddressInfo } from "node:net";
import type { InternalMailSettings } from "@lease/contracts";

export const TEST_COMPANY: InternalMailSettings["company"] = {
  companyName: "Test Lease BV",
  mobileAbbreviation: null,
  kvkNumber: "12345678",
  btwNumber: null,
  address: "Herengracht 1",
  city: "Amsterdam",
  postalCode: "1015 BA",
  phoneNumber: "020 123 4567",
  emailAddress: "info@testlease.nl",
  website: null,
  description: null,
  facebookPixelId: null,
  snapchatPixelId: null,
  tiktokPixelId: null,
  updatedAt: null,
};

export const CONFIGURED: InternalMailSettings = {
  sendgridApiKey: "SG.test-key-0123456789",
  sendgridApiKeyUnreadable: false,
  fromEmailAddress: "noreply@testlease.nl",
  notifyCompanyEmail: true,
  company: TEST_COMPANY,
};

/**
 * Stands in for the settings service's GET /internal/mail-settings (outside these tests' scope).
 * Like the real route it refuses a missing or wrong internal token.
 */
export async function startSettingsFixture(
  internalToken: string,
  initial: InternalMailSettings = CONFIGURED,
) {
  let current = initial;
  let calls = 0;
  const server = http.createServer((req, res) => {
    if (req.headers["x-internal-token"] !== internalToken) {
      res.writeHead(403, { "content-type": "application/json" });
      return res.end(JSON.stringify({ code: "forbidden", message: "Alleen voor interne diensten" }));
    }
    if (req.method !== "GET" || req.url !== "/internal/mail-settings") {
      res.writeHead(404);
      return res.end();
    }
    calls++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(current));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(next: InternalMailSettings) {
      current = next;
    },
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
