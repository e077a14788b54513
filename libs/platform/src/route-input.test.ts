import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Middleware } from "koa";
import { z } from "zod";
import { ContactBody } from "@lease/contracts";
import { createApp } from "./app";
import { HttpError, StartupError } from "./errors";
import { createLogger } from "./logger";
import { answerProblem } from "./route-answers";
import {
  contractRouter,
  contractRoutesOf,
  markGuard,
  mountContractRoutes,
  type ContractRouter,
} from "./routes";
import { startHttpServer, type RunningServer } from "./server";
import { parseOr400 } from "./validate";

// The router parses what a route declares and, with checkAnswers (every service under
// NODE_ENV=test), holds each answer against the route's declared responses.

const anyAdmin: Middleware = markGuard(async (ctx, next) => {
  ctx.state.admin = { id: "a", username: "a", jti: "j", exp: 0, gen: 0 };
  return next();
}, "admin");

let answer: { status: number; body: unknown; refusal?: HttpError } = { status: 201, body: {} };
let seen: unknown[] = [];
let internalAnswer: unknown = { due: 0 };
const anyService: Middleware = markGuard((_ctx, next) => next(), "internal");

function groups(): ContractRouter[] {
  const pub = contractRouter("leads").post("/api/contact", (ctx) => {
    seen.push(ctx.input.body);
    if (answer.refusal) throw answer.refusal;
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  const admin = contractRouter("leads", anyAdmin).post(
    "/api/admin/lease-requests/{id}/conversions/retry",
    (ctx) => {
      seen.push({ params: ctx.input.params, body: ctx.input.body });
      throw new HttpError(409, "nothing_to_retry", "Niets om opnieuw te versturen.");
    },
  );
  const internal = contractRouter("leads", anyService).get("/internal/follow-ups/due", (ctx) => {
    ctx.body = internalAnswer;
  });
  return [pub, admin, internal];
}

/** Every other leads route answers 204 (not called here): mountContractRoutes wants them all. */
function rest(taken: ContractRouter[]): ContractRouter[] {
  const mounted = new Set(taken.flatMap((g) => g.routes.map((r) => `${r.method} ${r.path}`)));
  const byKind = new Map<string, ContractRouter>();
  const guards: Record<string, Middleware | undefined> = {
    public: undefined,
    admin: anyAdmin,
    internal: anyService,
  };
  for (const route of contractRoutesOf("leads")) {
    if (mounted.has(`${route.method} ${route.path}`)) continue;
    const kind = `${route.access}${route.ownBody ? " raw" : ""}`;
    if (!byKind.has(kind))
      byKind.set(kind, contractRouter("leads", guards[route.access], { rawBody: Boolean(route.ownBody) }));
    const verb = route.method.toLowerCase() as "get";
    (byKind.get(kind)![verb] as unknown as (path: string, mw: Middleware) => void)(route.path, (ctx) => {
      ctx.status = 204;
    });
  }
  return [...taken, ...byKind.values()];
}

let server: RunningServer;
beforeAll(async () => {
  const { parsed, raw } = mountContractRoutes("leads", rest(groups()), { checkAnswers: true });
  const logger = createLogger("test", "silent");
  const app = createApp({ service: "leads", logger, routes: parsed, rawRoutes: raw });
  server = await startHttpServer(app, { host: "127.0.0.1", port: 0, logger });
});
afterAll(() => server?.close(0));

const post = (path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const contact = { name: "  Jan  ", email: "jan@example.nl", message: "Graag een offerte voor een auto." };

describe("contractRouter hands the handler the route's parsed input", () => {
  it("a body its schema refuses is a 400 with the fields' Dutch messages, as parseOr400 words it", async () => {
    seen = [];
    const bad = { name: "", email: "geen adres", message: "kort", extra: 1 };
    const res = await post("/api/contact", bad);
    expect(res.status).toBe(400);
    let expected: unknown;
    try {
      parseOr400(ContactBody, bad);
    } catch (err) {
      expected = (err as { toBody(): unknown }).toBody();
    }
    expect(await res.json()).toEqual(expected);
    expect(seen).toEqual([]);
    expect(((await (await post("/api/contact")).json()) as { message: string }).message).toBe(
      "Stuur een JSON-object",
    );
  });

  it("a valid body reaches the handler parsed (trimmed, defaults applied)", async () => {
    seen = [];
    answer = { status: 201, body: { id: "9b2f1c1e-0a4e-4d57-9d38-8c1f3e0a7b21" } };
    expect((await post("/api/contact", contact)).status).toBe(201);
    expect(seen).toEqual([ContactBody.parse(contact)]);
    expect((seen[0] as { name: string }).name).toBe("Jan");
  });

  it("params are parsed, and a route whose body is optional reads no body as {}", async () => {
    seen = [];
    const id = "9b2f1c1e-0a4e-4d57-9d38-8c1f3e0a7b21";
    expect((await post(`/api/admin/lease-requests/${id}/conversions/retry`)).status).toBe(409);
    expect(seen).toEqual([{ params: { id }, body: {} }]);
    const res = await post("/api/admin/lease-requests/abc/conversions/retry");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: unknown }).fields).toEqual([
      { path: "id", message: expect.any(String) },
    ]);
  });
});

describe("in tests every answer is held against the route's declared responses", () => {
  it("an undeclared field or status fails the request (500); the declared answer passes", async () => {
    const id = "9b2f1c1e-0a4e-4d57-9d38-8c1f3e0a7b21";
    answer = { status: 201, body: { id, internalNote: "x" } };
    expect((await post("/api/contact", contact)).status).toBe(500);
    answer = { status: 200, body: { id } };
    expect((await post("/api/contact", contact)).status).toBe(500);
    answer = { status: 201, body: { id: "not-a-uuid" } };
    expect((await post("/api/contact", contact)).status).toBe(500);
    answer = { status: 201, body: { id } };
    expect((await post("/api/contact", contact)).status).toBe(201);
  });

  it("a refusal whose status and code the OpenAPI document does not list for the route fails too", async () => {
    answer = { status: 201, body: {}, refusal: new HttpError(409, "conflict", "Bestaat al") };
    expect((await post("/api/contact", contact)).status).toBe(500);
    answer = { status: 201, body: {}, refusal: new HttpError(429, "rate_limited", "Te veel verzoeken") };
    expect((await post("/api/contact", contact)).status).toBe(429);
    answer = { status: 201, body: {} };
  });

  it("an internal route's answer too: a field its entry does not declare fails the call", async () => {
    const due = () => fetch(`${server.url}/internal/follow-ups/due`);
    internalAnswer = { due: 2, overdue: [] };
    expect((await due()).status).toBe(500);
    internalAnswer = { due: -1 };
    expect((await due()).status).toBe(500);
    internalAnswer = { due: 2 };
    const res = await due();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ due: 2 });
  });

  it("answerProblem names the field a schema would strip, nested too", () => {
    const Answer = z.object({
      items: z.array(z.object({ id: z.string() })),
      tags: z.record(z.string(), z.number()),
    });
    expect(answerProblem(Answer, { items: [{ id: "a" }], tags: { x: 1 } })).toBeUndefined();
    expect(answerProblem(Answer, { items: [{ id: "a", secret: 1 }], tags: {} })).toBe(
      "fields the contract does not declare: items[0].secret",
    );
    expect(answerProblem(Answer, { items: [{}], tags: {} })).toContain("items.0.id");
  });
});

describe("a route that reads its own body says so in the contract", () => {
  it("refuses it outside a rawBody group, and a JSON route inside one", () => {
    const ok: Middleware = (ctx) => void (ctx.status = 204);
    expect(() => contractRouter("mailer").post("/api/sendgrid/events", ok)).toThrow(StartupError);
    expect(() => contractRouter("mailer").post("/api/sendgrid/events", ok)).toThrow(/rawBody: true/);
    expect(() => contractRouter("leads", undefined, { rawBody: true }).post("/api/contact", ok)).toThrow(
      /no ownBody/,
    );
  });
});
