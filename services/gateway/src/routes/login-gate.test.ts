import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService } from "@lease/platform";
import { createTestDatabase, testEnv, freePort, type TestDatabase } from "@lease/platform/testing";
import { startGateway } from "../service";
import { createAdmin } from "../testing";
import { PASSWORDS_BUSY_MESSAGE } from "./auth";

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
