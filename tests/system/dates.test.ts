import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_SUCH_DATE, buildOpenApiDocument } from "@lease/contracts";
import { startFullStack, type FullStack } from "./stack";

// The date walk: every date field of every route in the OpenAPI document (query parameters and
// body properties of format "date" or "date-time") is sent impossible days through the gateway,
// signed in, and must answer 400 with the Dutch message on that field (never a 500), while a real
// leap day passes the check; the document's own pattern refuses and accepts the same values.

type Json = Record<string, unknown>;
interface DateField {
  method: string;
  path: string;
  in: "query" | "body";
  name: string;
  format: "date" | "date-time";
}

const doc = buildOpenApiDocument() as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};

function resolve(schema: Json): Json {
  const ref = schema.$ref;
  return typeof ref === "string" ? doc.components.schemas[ref.split("/").pop()!]! : schema;
}

/** The date schema inside a property (a nullable one is an anyOf with null). */
function dateSchema(schema: Json): Json | undefined {
  const s = resolve(schema);
  if (s.format === "date" || s.format === "date-time") return s;
  for (const alt of (s.anyOf ?? s.oneOf ?? []) as Json[]) {
    const found = dateSchema(alt);
    if (found) return found;
  }
  return undefined;
}

/** Top-level body properties, also those of each alternative of a union body. */
function bodyProperties(schema: Json): [string, Json][] {
  const s = resolve(schema);
  const own = Object.entries((s.properties ?? {}) as Record<string, Json>);
  return [...own, ...((s.anyOf ?? s.oneOf ?? []) as Json[]).flatMap(bodyProperties)];
}

const FIELDS: (DateField & { schema: Json })[] = [];
for (const [path, methods] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(methods)) {
    for (const p of (op.parameters ?? []) as { name: string; in: string; schema: Json }[]) {
      const s = p.in === "query" ? dateSchema(p.schema) : undefined;
      if (s) FIELDS.push({ method, path, in: "query", name: p.name, format: s.format as never, schema: s });
    }
    const body = (op.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content[
      "application/json"
    ]?.schema;
    for (const [name, prop] of body ? bodyProperties(body) : []) {
      const s = dateSchema(prop);
      if (s) FIELDS.push({ method, path, in: "body", name, format: s.format as never, schema: s });
    }
  }
}

/** Every string field whose name says it is a date or moment, wherever the document has one. */
const DATE_NAME = /^(from|to|before|after|since|until|day|date)$|(On|At|Day|Date)$/;
const NAMED_LIKE_DATES: string[] = [];
for (const [path, methods] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(methods)) {
    const body = (op.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content[
      "application/json"
    ]?.schema;
    const props: [string, Json][] = [
      ...((op.parameters ?? []) as { name: string; in: string; schema: Json }[])
        .filter((p) => p.in === "query")
        .map((p): [string, Json] => [p.name, p.schema]),
      ...(body ? bodyProperties(body) : []),
    ];
    for (const [name, prop] of props) {
      const s = resolve(prop);
      const types = [s.type, ...((s.anyOf ?? []) as Json[]).map((a) => resolve(a).type)];
      if (DATE_NAME.test(name) && types.includes("string"))
        NAMED_LIKE_DATES.push(`${method.toUpperCase()} ${path} ${name}`);
    }
  }
}
/** Named like a date but something else: the inbox's page cursor (checked below), a recipient. */
const NOT_A_DATE = ["GET /api/admin/emails before", "POST /api/admin/send-email to"];

/** Well-formed, impossible: month 13 and 00, day 32 and 00, 30 February, 29 February of 2026 and 2100. */
const IMPOSSIBLE = [
  "2026-13-01",
  "2026-11-32",
  "2025-00-10",
  "2026-01-00",
  "2026-02-30",
  "2026-02-29",
  "2100-02-29",
  "2026-04-31",
];
const MALFORMED = ["2026-1-01", "26-01-01", "2026/01/01", "2026-01-01x"];
/** Real days: leap days of 2024 and 2000 (a century divisible by 400). */
const REAL = ["2024-02-29", "2000-02-29"];

const asValue = (f: DateField, day: string) => (f.format === "date" ? day : `${day}T12:00:00Z`);

let stack: FullStack;
let cookie: string;

beforeAll(async () => {
  stack = await startFullStack();
  cookie = await stack.adminCookie();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** Sends the route with `value` in the field and a real day in each other date field of the route. */
async function send(f: DateField, value: string): Promise<{ status: number; body: Json }> {
  const path = f.path.replace(/\{[^}]+\}/g, randomUUID());
  const others = FIELDS.filter((o) => o.path === f.path && o.method === f.method && o.in === f.in);
  const values: Record<string, string> = {};
  for (const o of others) values[o.name] = o === f ? value : asValue(o, "2024-02-29");
  const query = f.in === "query" ? `?${new URLSearchParams(values)}` : "";
  const res = await fetch(`${stack.gateway.url}${path}${query}`, {
    method: f.method.toUpperCase(),
    headers: {
      origin: stack.origin,
      cookie,
      ...(f.method === "get" ? {} : { "content-type": "application/json" }),
    },
    body: f.in === "body" ? JSON.stringify(values) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith("{") ? (JSON.parse(text) as Json) : {} };
}

const messageOn = (body: Json, name: string) =>
  ((body.fields ?? []) as { path: string; message: string }[])
    .filter((x) => x.path === name)
    .map((x) => x.message);

describe("every date a client sends", () => {
  it("is found by the walk on each route that reads one", () => {
    const found = FIELDS.map((f) => `${f.method.toUpperCase()} ${f.path} ${f.name}`);
    // The known ones: the walk must not silently find fewer.
    expect(found).toEqual(
      expect.arrayContaining([
        "GET /api/admin/analytics from",
        "GET /api/admin/analytics to",
        "GET /api/admin/campaign-report from",
        "GET /api/admin/campaign-report to",
        "GET /api/admin/ad-spend from",
        "GET /api/admin/ad-spend to",
        "POST /api/admin/ad-spend day",
        "PUT /api/admin/lease-requests/{id}/follow-up followUpOn",
        "GET /api/admin/audit-log from",
        "GET /api/admin/audit-log before",
      ]),
    );
  });

  it("leaves no field named like a date outside the walk (a date read with a pattern of its own)", () => {
    const walked = new Set(FIELDS.map((f) => `${f.method.toUpperCase()} ${f.path} ${f.name}`));
    expect(NAMED_LIKE_DATES.length).toBeGreaterThan(FIELDS.length / 2);
    expect(NAMED_LIKE_DATES.filter((f) => !walked.has(f) && !NOT_A_DATE.includes(f))).toEqual([]);
  });

  /** Sends each day in each date field; `check` gets the answer and the messages on that field. */
  async function walk(
    days: string[],
    check: (f: DateField, status: number, messages: string[], where: string) => void,
  ) {
    for (const f of FIELDS) {
      for (const day of days) {
        const { status, body } = await send(f, asValue(f, day));
        check(f, status, messageOn(body, f.name), `${f.method} ${f.path} ${f.name}=${day}`);
      }
    }
  }

  it("answers an impossible day with 400 and the Dutch message on that field, on every route", async () => {
    await walk(IMPOSSIBLE, (_f, status, messages, where) => {
      expect(status, where).toBe(400);
      expect(messages, where).toEqual([NO_SUCH_DATE]);
    });
  }, 60_000);

  it("answers a malformed date with 400 and a Dutch message saying the format", async () => {
    await walk(MALFORMED, (f, status, messages, where) => {
      expect(status, where).toBe(400);
      expect(messages, where).toHaveLength(1);
      expect(messages[0], where).toMatch(f.format === "date" ? /JJJJ-MM-DD/ : /JJJJ-MM-DDTUU:MM:SSZ/);
    });
  }, 60_000);

  it("takes a real leap day in every date field", async () => {
    await walk(REAL, (_f, status, messages, where) => {
      expect(status, where).not.toBe(500);
      // A route may still refuse the period a leap day makes with the route's other dates (the
      // response report reads at most two years: 2000-02-29 to 2024-02-29 is not), never the day.
      const aboutTheDay = messages.filter((m) => m === NO_SUCH_DATE || /JJJJ-MM-DD/.test(m));
      expect(aboutTheDay, where).toEqual([]);
    });
  }, 60_000);

  it("is documented with a pattern as strict as the check", () => {
    for (const f of FIELDS) {
      const pattern = new RegExp(f.schema.pattern as string);
      for (const day of [...IMPOSSIBLE, ...MALFORMED])
        expect(pattern.test(asValue(f, day)), `${f.path} ${f.name}=${day}`).toBe(false);
      for (const day of REAL) expect(pattern.test(asValue(f, day)), `${f.path} ${f.name}=${day}`).toBe(true);
    }
  });

  it("refuses an inbox page cursor of an impossible moment with 400, not a database error", async () => {
    for (const at of [
      "2026-13-01T00:00:00.000000Z",
      "2026-02-30T00:00:00.000000Z",
      "2026-01-01T24:00:00.000000Z",
    ]) {
      const res = await fetch(`${stack.gateway.url}/api/admin/emails?before=${at}_${randomUUID()}`, {
        headers: { origin: stack.origin, cookie },
      });
      expect(res.status, at).toBe(400);
    }
    const res = await fetch(
      `${stack.gateway.url}/api/admin/emails?before=2024-02-29T10:00:00.000000Z_${randomUUID()}`,
      { headers: { origin: stack.origin, cookie } },
    );
    expect(res.status).toBe(200);
  });
});
