import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, decodeProtectedHeader } from "jose";
import type { Redis, RunningService, SessionDeps } from "@lease/platform";
import { createTestDatabase, freePort, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import {
  badTokens,
  connectRedis,
  cookieFor,
  createAdmin,
  loggerInto,
  sessionDepsFor,
  type TestResponse,
} from "../testing";
import { PASSWORDS_BUSY_MESSAGE } from "./auth";

// Sign-in, session and CSRF rules of the gateway, over HTTP against real Postgres and Redis.

const UUID = /^[0-9a-f-]{36}$/;
const PASSWORD = "correct horse battery staple";
const logLines: Record<string, unknown>[] = [];
let db: TestDatabase;
let gw: RunningService;
let env: NodeJS.ProcessEnv;
let redis: Redis;
let deps: SessionDeps;
let origin: string;

beforeAll(async () => {
  db = await createTestDatabase("gwauth");
  const dead = `http://127.0.0.1:${await freePort()}`;
  env = testEnv({
    DATABASE_URL: db.url,
    LEADS_URL: dead,
    SETTINGS_URL: dead,
    TRACKING_URL: dead,
    MAILER_URL: dead,
    WEB_DIST_DIR: "/nonexistent",
    // The test client is "the load balancer": X-Forwarded-For then names the client.
    TRUSTED_PROXIES: "127.0.0.1",
  });
  gw = await startGateway(env, { logger: loggerInto(logLines) });
  origin = gw.url;
  redis = await connectRedis();
  deps = sessionDepsFor(env, redis);
  for (const name of ["admin", "lock-a", "lock-b", "lock-c", "lock-d", "burst", "owner8"])
    await createAdmin(db.url, name, PASSWORD);
});

afterAll(async () => {
  await gw.stop();
  redis.disconnect();
  await db.drop();
});

function call(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    cookie?: string;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { origin, "content-type": "application/json", ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.ip) headers["x-forwarded-for"] = init.ip;
  return fetch(`${gw.url}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
const login = (username: string, password: string, ip = "192.0.2.1", headers?: Record<string, string>) =>
  call("/api/admin/login", { method: "POST", body: { username, password }, ip, headers });
const sessionCookie = (res: TestResponse) =>
  /admin_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];

describe("POST /api/admin/login", () => {
  it("signs in: HttpOnly SameSite=Strict cookie with a 12-hour HS256 JWT whose jti is in Redis", async () => {
    const res = await login("admin", PASSWORD);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ admin: { id: expect.stringMatching(UUID), username: "admin" } });
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^admin_session=[^;]+; /);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).not.toContain("Secure");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const token = sessionCookie(res)!;
    expect(decodeProtectedHeader(token).alg).toBe("HS256");
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(12 * 60 * 60);
    expect(await redis.get(deps.keys("session", claims.jti!))).toBe("admin");
  });

  it("answers a wrong password and an unknown username with the same 401 'Onjuiste inloggegevens'", async () => {
    const wrong = await login("admin", "not the password at all", "192.0.2.50");
    const unknown = await login("nobody-here", PASSWORD, "192.0.2.51");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const expected = { code: "invalid_credentials", message: "Onjuiste inloggegevens" };
    expect(await wrong.json()).toEqual(expected);
    expect(await unknown.json()).toEqual(expected);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  it("names missing fields with the SPEC texts", async () => {
    const res = await call("/api/admin/login", { method: "POST", body: { username: "", password: "" } });
    expect(res.status).toBe(400);
    expect((await res.json()).fields.map((f: { message: string }) => f.message)).toEqual([
      "Gebruikersnaam is verplicht",
      "Wachtwoord is verplicht",
    ]);
  });

  it("logs every attempt with username, IP and outcome, never the password", async () => {
    await login("admin", "a-secret-wrong-guess-123", "198.51.100.7");
    await login("admin", PASSWORD, "198.51.100.7");
    const attempts = logLines.filter((l) => l.msg === "admin login" && l.ip === "198.51.100.7");
    expect(attempts.map((l) => [l.username, l.outcome])).toEqual([
      ["admin", "failure"],
      ["admin", "success"],
    ]);
    const all = JSON.stringify(logLines);
    expect(all).not.toContain("a-secret-wrong-guess-123");
    expect(all).not.toContain(PASSWORD);
  });
});

describe("GET /api/admin/me and POST /api/admin/logout", () => {
  it("shows the signed-in admin, uncached", async () => {
    const cookie = cookieFor(sessionCookie(await login("admin", PASSWORD)));
    const me = await call("/api/admin/me", { cookie });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ admin: { id: expect.stringMatching(UUID), username: "admin" } });
    expect(me.headers.get("cache-control")).toBe("no-store");
  });

  it("logout deletes the jti and clears the cookie; the old cookie is refused from then on", async () => {
    const token = sessionCookie(await login("admin", PASSWORD))!;
    const out = await call("/api/admin/logout", { method: "POST", cookie: cookieFor(token) });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^admin_session=; .*Max-Age=0/);
    expect(await redis.get(deps.keys("session", decodeJwt(token).jti!))).toBeNull();
    expect((await call("/api/admin/me", { cookie: cookieFor(token) })).status).toBe(401);
    expect((await call("/api/admin/logout", { method: "POST", cookie: cookieFor(token) })).status).toBe(401);
  });

  it("refuses missing, expired, revoked, tampered, alg:none, other-algorithm and other-secret tokens", async () => {
    for (const [kind, token] of Object.entries(await badTokens(deps))) {
      const res = await call("/api/admin/me", { cookie: cookieFor(token) });
      expect(res.status, kind).toBe(401);
      expect(res.headers.get("cache-control"), kind).toBe("no-store");
    }
  });
});

describe("CSRF", () => {
  const attempt = (headers: Record<string, string>): Promise<TestResponse> =>
    fetch(`${gw.url}/api/admin/login`, {
      method: "POST",
      headers,
      body: JSON.stringify({ username: "admin", password: PASSWORD }),
    });

  it("refuses a sign-in from another site, without an Origin, or not as JSON", async () => {
    const json = { "content-type": "application/json" };
    expect((await attempt({ ...json, origin: "https://evil.example" })).status).toBe(403);
    expect((await attempt({ ...json, "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await attempt({ ...json, origin, "sec-fetch-site": "same-site" })).status).toBe(403);
    expect((await attempt({ ...json, origin: "null" })).status).toBe(403);
    expect((await attempt(json)).status).toBe(403);
    expect((await attempt({ origin, "content-type": "text/plain" })).status).toBe(415);
    expect((await attempt({ origin, "content-type": "application/x-www-form-urlencoded" })).status).toBe(415);
    const refused = await attempt({ ...json, origin: "https://evil.example" });
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect((await refused.json()).message).toBe("Verzoeken van een andere website worden geweigerd");
  });

  it("accepts Sec-Fetch-Site: same-origin without an Origin header", async () => {
    const res = await attempt({ "content-type": "application/json", "sec-fetch-site": "same-origin" });
    expect(res.status).toBe(200);
  });

  it("refuses a cross-site logout and keeps the session", async () => {
    const cookie = cookieFor(sessionCookie(await login("admin", PASSWORD)));
    const res = await call("/api/admin/logout", {
      method: "POST",
      cookie,
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect((await call("/api/admin/me", { cookie })).status).toBe(200);
    const form = await call("/api/admin/logout", {
      method: "POST",
      cookie,
      headers: { "content-type": "text/plain" },
    });
    expect(form.status).toBe(415);
    expect((await call("/api/admin/me", { cookie })).status).toBe(200);
  });
});

describe("POST /api/admin/login", () => {
  describe("brute-force lockout", () => {
    it("answers 429 with Retry-After after 5 failures, even for the right password from that IP", async () => {
      for (let i = 0; i < 5; i++)
        expect((await login("lock-a", "wrong-password-123", "203.0.113.10")).status).toBe(401);
      const locked = await login("lock-a", PASSWORD, "203.0.113.10");
      expect(locked.status).toBe(429);
      const retryAfter = Number(locked.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect((await locked.json()).message).toBe(
        "Te veel mislukte pogingen. Probeer het over 15 minuten opnieuw.",
      );
      expect(
        logLines.some((l) => l.msg === "admin login" && l.username === "lock-a" && l.outcome === "locked"),
      ).toBe(true);
    });

    it("the IP that failed 5 times is not locked for the same username from another IP", async () => {
      for (let i = 0; i < 5; i++) await login("lock-b", "wrong-password-123", "203.0.113.20");
      expect((await login("lock-b", PASSWORD, "203.0.113.20")).status).toBe(429);
      expect((await login("lock-b", PASSWORD, "203.0.113.21")).status).toBe(200);
    });

    it("wrong passwords from rotating addresses cannot lock the owner out, and each such address gets one guess", async () => {
      const attackers = Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 100}`);
      for (const ip of attackers) expect((await login("lock-c", "wrong-password-123", ip)).status).toBe(401);
      // The username is under attack: an address that already failed waits for the window...
      const again = await login("lock-c", "wrong-password-456", attackers[3]);
      expect(again.status).toBe(429);
      expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
      // ...while the owner, from an address without failures, signs in.
      const owner = await login("lock-c", PASSWORD, "192.0.2.200");
      expect(owner.status).toBe(200);
      expect(owner.headers.get("set-cookie")).toMatch(/^admin_session=/);
    });

    it("the owner who mistyped once before an attack from elsewhere still signs in from their own address", async () => {
      const home = "192.0.2.210";
      expect((await login("owner8", PASSWORD, home)).status).toBe(200);
      expect((await login("owner8", "a typo in the password", home)).status).toBe(401);
      // Then an attack from another address, until it is refused (the username now counts five
      // failures: the typo and four guesses).
      for (let i = 0; i < 4; i++)
        expect((await login("owner8", `guess ${i} of many`, "198.51.100.77")).status).toBe(401);
      expect((await login("owner8", "one more guess", "198.51.100.77")).status).toBe(429);
      // The owner's right password from home is still checked, and signs in.
      const owner = await login("owner8", PASSWORD, home);
      expect(owner.status).toBe(200);
    });

    it("a success resets the username's count", async () => {
      for (let i = 0; i < 4; i++) await login("lock-d", "wrong-password-123", "203.0.113.30");
      expect((await login("lock-d", PASSWORD, "203.0.113.31")).status).toBe(200);
      for (let i = 0; i < 4; i++)
        expect((await login("lock-d", "wrong-password-123", "203.0.113.32")).status).toBe(401);
      expect((await login("lock-d", PASSWORD, "203.0.113.33")).status).toBe(200);
    });

    it("a burst of parallel guesses gets no more than 5 password checks", async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => login("burst", "wrong-password-123", "203.0.113.40")),
      );
      const statuses = answers.map((r) => r.status);
      // At most 5 reach the password check (401); the brake refuses the rest (429), and on a busy
      // host the password gate may answer some of them 503 login_busy before the brake does.
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((s) => s !== 401 && s !== 429 && s !== 503)).toEqual([]);
      expect(
        statuses.filter((s) => s === 429).length + statuses.filter((s) => s === 401).length,
      ).toBeGreaterThan(0);
    });

    it("takes its limits from the LOGIN_* settings", async () => {
      const strict = await startGateway(
        {
          ...env,
          LOGIN_MAX_FAILURES: "3",
          LOGIN_MAX_ADDRESS_FAILURES: "4",
          LOGIN_WINDOW_MINUTES: "10",
          LOGIN_LOCK_MINUTES: "2",
        },
        { logger: pino({ level: "silent" }) },
      );
      try {
        const attempt = (password: string, username = "lock-c", ip = "203.0.113.50") =>
          fetch(`${strict.url}/api/admin/login`, {
            method: "POST",
            headers: { origin: strict.url, "content-type": "application/json", "x-forwarded-for": ip },
            body: JSON.stringify({ username, password }),
          });
        for (let i = 0; i < 3; i++) expect((await attempt("wrong-password-123")).status).toBe(401);
        const locked = await attempt(PASSWORD);
        expect(locked.status).toBe(429);
        expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(60);
        expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(2 * 60);
        expect(((await locked.json()) as { message: string }).message).toBe(
          "Te veel mislukte pogingen. Probeer het over 2 minuten opnieuw.",
        );
        // Four failures from one address over two usernames lock that address for every username.
        for (const name of ["nobody-1", "nobody-1", "nobody-2", "nobody-2"])
          expect((await attempt("wrong-password-123", name, "203.0.113.51")).status).toBe(401);
        expect((await attempt(PASSWORD, "lock-d", "203.0.113.51")).status).toBe(429);
      } finally {
        await strict.stop();
      }
      for (const [bad, name] of [
        [{ LOGIN_MAX_FAILURES: "0" }, "LOGIN_MAX_FAILURES"],
        [{ LOGIN_MAX_ADDRESS_FAILURES: "many" }, "LOGIN_MAX_ADDRESS_FAILURES"],
        [{ LOGIN_WINDOW_MINUTES: "abc" }, "LOGIN_WINDOW_MINUTES"],
        [{ LOGIN_LOCK_MINUTES: "90" }, "LOGIN_MAX_LOCK_MINUTES"],
      ] as const) {
        const err = await startGateway({ ...env, ...bad }).catch((e: unknown) => e);
        expect(err, name).toBeInstanceOf(Error);
        expect((err as Error).message).toContain(name);
      }
    });
  });
});

describe("security headers", () => {
  it("sets CSP (no inline scripts, the pixel vendors allowed), nosniff, referrer policy and no HSTS over http", async () => {
    for (const path of ["/api/company-settings", "/", "/healthz"]) {
      const res = await fetch(`${gw.url}${path}`);
      const csp = res.headers.get("content-security-policy")!;
      const scriptSrc = csp
        .split(";")
        .map((d) => d.trim())
        .find((d) => d.startsWith("script-src"))!;
      expect(scriptSrc).not.toContain("unsafe-inline");
      expect(scriptSrc).not.toContain("unsafe-eval");
      for (const vendor of [
        "https://connect.facebook.net",
        "https://sc-static.net",
        "https://analytics.tiktok.com",
      ])
        expect(scriptSrc).toContain(vendor);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("gives the admin pages and API a CSP without the pixel vendors' hosts", async () => {
    for (const path of ["/api/admin/me", "/admin", "/admin-login", "/email-compose"]) {
      const csp = (await fetch(`${gw.url}${path}`)).headers.get("content-security-policy")!;
      expect(csp, path).toContain("script-src 'self';");
      for (const vendor of ["facebook", "sc-static", "snapchat", "tiktok"])
        expect(csp, path).not.toContain(vendor);
      expect(csp, path).toContain("frame-ancestors 'none'");
    }
  });

  it("checks the session before it reads an admin body", async () => {
    // Malformed JSON without a session: 401 (the body is never parsed), not the parser's 400.
    for (const path of ["/api/admin/users", "/api/admin/account/totp/setup", "/api/admin/privacy/search"]) {
      const res = await fetch(`${gw.url}${path}`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: '{"not json',
      });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
  });
});

describe("over https (PUBLIC_ORIGIN https://...)", () => {
  it("uses the __Host- cookie with Secure, sends HSTS, and checks Origin against the public origin", async () => {
    const https = await startGateway({ ...env, PUBLIC_ORIGIN: "https://lease.example.nl" });
    try {
      const post = (o: string) =>
        fetch(`${https.url}/api/admin/login`, {
          method: "POST",
          headers: { origin: o, "content-type": "application/json", "x-forwarded-for": "192.0.2.99" },
          body: JSON.stringify({ username: "admin", password: PASSWORD }),
        });
      expect((await post(https.url)).status).toBe(403);
      const res = await post("https://lease.example.nl");
      expect(res.status).toBe(200);
      const setCookie = res.headers.get("set-cookie")!;
      expect(setCookie).toMatch(
        /^__Host-admin_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/,
      );
      expect(res.headers.get("strict-transport-security")).toContain("max-age=");
      const token = /__Host-admin_session=([^;]+)/.exec(setCookie)![1]!;
      const me = await fetch(`${https.url}/api/admin/me`, {
        headers: { cookie: `__Host-admin_session=${token}` },
      });
      expect(me.status).toBe(200);
    } finally {
      await https.stop();
    }
  });
});

describe("POST /api/admin/login", () => {
  // The bound on password-hashing work, over HTTP: a flood of wrong sign-ins from many addresses
  // against a gateway that checks one password at a time with one waiting.

  const PASSWORD = "correct horse battery staple";
  const OWNER_HOME = "198.51.100.7";
  let db: TestDatabase;
  let gw: RunningService;

  beforeAll(async () => {
    db = await createTestDatabase("gwgate");
    const dead = `http://127.0.0.1:${await freePort()}`;
    gw = await startGateway(
      testEnv({
        DATABASE_URL: db.url,
        LEADS_URL: dead,
        SETTINGS_URL: dead,
        TRACKING_URL: dead,
        MAILER_URL: dead,
        WEB_DIST_DIR: "/nonexistent",
        // The test client is "the load balancer": X-Forwarded-For names each attacker's address.
        TRUSTED_PROXIES: "127.0.0.1",
        LOGIN_HASH_CONCURRENCY: "1",
        LOGIN_HASH_QUEUE: "1",
        LOGIN_HASH_WAIT_MS: "3000",
      }),
    );
    await createAdmin(db.url, "owner", PASSWORD);
  });

  afterAll(async () => {
    await gw.stop();
    await db.drop();
  });

  interface Answer {
    status: number;
    body: { code?: string; message?: string };
    retryAfter: string | null;
  }

  async function signIn(username: string, password: string, ip: string): Promise<Answer> {
    const res = await fetch(`${gw.url}/api/admin/login`, {
      method: "POST",
      headers: { origin: gw.url, "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ username, password }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Answer["body"],
      retryAfter: res.headers.get("retry-after"),
    };
  }

  describe("the bound on password checks", () => {
    it("answers attempts beyond the gate 503 with a Dutch message and Retry-After, while the owner's known address signs in", async () => {
      // The owner signed in from home before: that address is known for the username.
      expect((await signIn("owner", PASSWORD, OWNER_HOME)).status).toBe(200);

      // 24 clients sending wrong sign-ins back to back, each from a new address every time (so no
      // address runs out of its own budget), half for unknown usernames and half for the owner's:
      // far more than the gate checks at once and lets wait. Each goes on a little past the owner.
      const answers: { username: string; answer: Answer; afterOwner: boolean }[] = [];
      let ownerDone = false;
      let firstBusy!: () => void;
      const saturated = new Promise<void>((resolve) => (firstBusy = resolve));
      const flood = Array.from({ length: 24 }, async (_, i) => {
        const username = i % 2 === 0 ? `nobody-${i}` : "owner";
        let after = 0;
        for (let n = 0; n < 250 && after < 3; n++) {
          const answer = await signIn(username, "a wrong password", `198.18.${i}.${n + 1}`);
          answers.push({ username, answer, afterOwner: ownerDone });
          if (answer.status === 503) firstBusy();
          if (ownerDone) after++;
        }
      });
      await saturated;
      // The owner at home, in the middle of the flood: ahead of every waiting anonymous attempt.
      const owner = await signIn("owner", PASSWORD, OWNER_HOME);
      ownerDone = true;
      await Promise.all(flood);

      expect(owner.status).toBe(200);
      const busy = answers.filter((a) => a.answer.status === 503);
      for (const { answer } of busy) {
        expect(answer.body).toEqual({ code: "login_busy", message: PASSWORDS_BUSY_MESSAGE });
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      // The flood went on past the owner's sign-in: it did not get in because the gate was idle.
      expect(busy.some((a) => a.afterOwner)).toBe(true);
      // Unknown and existing usernames are refused alike (no sign of which exist).
      expect(busy.some((a) => a.username === "owner")).toBe(true);
      expect(busy.some((a) => a.username !== "owner")).toBe(true);
      // Nothing else: checked and wrong (401), or refused unchecked (503); none waited without end.
      expect(new Set(answers.map((a) => a.answer.status))).toEqual(new Set([401, 503]));
    });
  });
});
