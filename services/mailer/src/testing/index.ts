import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { InternalMailSettings } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import {
  adminCookie,
  createTestDatabase,
  startSendgridReceiver,
  startTcpProxy,
  testEnv,
  type SendgridReceiver,
  type TestDatabase,
} from "@lease/platform/testing";
import { startMailer } from "../service";

/** A TCP proxy a test can cut (the kit's startTcpProxy). */
type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;

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

/** The settings service's stand-in, as startSettingsFixture makes it. */
export type SettingsFixture = Awaited<ReturnType<typeof startSettingsFixture>>;

export interface MailerHarness {
  db: TestDatabase;
  settings: SettingsFixture;
  mailer: RunningService;
  /** A valid admin_session cookie header value. */
  cookie: string;
  /** A client of the mailer's database, for what the API does not show. */
  sql: pg.Client;
  /** The local SendGrid receiver (with `sendgrid: true`). */
  receiver: SendgridReceiver;
  /** The TCP proxy the mailer reaches its database through (with `cuttableDatabase: true`). */
  proxy: TcpProxy;
  /** A panel request to the mailer: the admin cookie and a JSON content type. */
  admin(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * A real mailer on a database of its own for the tests of one file (or describe block), with the
 * settings stand-in, started before them and closed after: `label` names the database, `env` adds to
 * the mailer's environment, `sendgrid` points it at a local SendGrid receiver, and `cuttableDatabase`
 * puts a TCP proxy the test can cut between the mailer and its database. The object is filled in by
 * the beforeAll hook, so its fields are there once the tests run.
 */
export function useMailerHarness(opts: {
  label: string;
  env?: Record<string, string>;
  sendgrid?: boolean;
  cuttableDatabase?: boolean;
}): MailerHarness {
  const h = {
    admin: (path: string, init: RequestInit = {}) =>
      fetch(`${h.mailer.url}${path}`, {
        ...init,
        headers: { "content-type": "application/json", cookie: h.cookie, ...init.headers },
      }),
  } as MailerHarness;
  beforeAll(async () => {
    h.db = await createTestDatabase(opts.label);
    let databaseUrl = h.db.url;
    if (opts.cuttableDatabase) {
      const url = new URL(h.db.url);
      h.proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
      url.host = `127.0.0.1:${h.proxy.port}`;
      databaseUrl = url.toString();
    }
    if (opts.sendgrid) h.receiver = await startSendgridReceiver();
    const base = testEnv({ DATABASE_URL: databaseUrl });
    h.settings = await startSettingsFixture(base.INTERNAL_TOKEN!);
    const env = {
      ...base,
      SETTINGS_URL: h.settings.url,
      LEADS_URL: "http://127.0.0.1:9",
      ...(opts.sendgrid ? { SENDGRID_API_BASE_URL: h.receiver.url } : {}),
      ...opts.env,
    };
    h.mailer = await startMailer(env);
    h.cookie = await adminCookie(env);
    h.sql = new pg.Client({ connectionString: h.db.url });
    await h.sql.connect();
  });
  afterAll(async () => {
    await h.sql?.end();
    await h.mailer?.stop();
    await h.settings?.close();
    await h.receiver?.close();
    await h.proxy?.close();
    await h.db?.drop();
  });
  return h;
}
