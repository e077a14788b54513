import { ApiError as ApiErrorSchema } from "@lease/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  apiErrorOf,
  apiRequest,
  errorStatus,
  fieldErrors,
  isApiErrorBody,
  queryUrl,
  userErrorMessage,
} from "./client";

const FALLBACK = "Er is een onverwachte fout opgetreden.";
const VALIDATION: ApiErrorSchema = {
  code: "validation_failed",
  message: "Controleer de gemarkeerde velden",
  fields: [
    { path: "message", message: "Maximaal 5000 tekens" },
    { path: "message", message: "a second message for the same field" },
    { path: "email", message: "Voer een geldig e-mailadres in" },
  ],
};

const answer = (status: number, body: string, statusText = "") =>
  new Response(body || null, { status, statusText });

describe("ApiError", () => {
  it("carries the status, the contract body and the 'status: body' message", async () => {
    const error = await apiErrorOf(answer(400, JSON.stringify(VALIDATION)));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(400);
    expect(error.code).toBe("validation_failed");
    expect(error.body).toEqual(VALIDATION);
    expect(error.message).toBe(`400: ${JSON.stringify(VALIDATION)}`);
    expect(error.fields).toEqual({
      message: "Maximaal 5000 tekens",
      email: "Voer een geldig e-mailadres in",
    });
  });

  it("has no body for an answer that is not the contract's error body; the status text stands in for none", async () => {
    const html = await apiErrorOf(answer(502, "<html>Bad Gateway</html>"));
    expect([html.status, html.body, html.code, html.fields]).toEqual([502, null, undefined, {}]);
    expect(html.message).toBe("502: <html>Bad Gateway</html>");
    const empty = await apiErrorOf(answer(503, "", "Service Unavailable"));
    expect(empty.message).toBe("503: Service Unavailable");
    const otherJson = await apiErrorOf(answer(500, JSON.stringify({ message: "no code" })));
    expect(otherJson.body).toBeNull();
  });

  it("is what the fetch layer throws for a non-2xx answer", async () => {
    const fetchMock = vi.fn(async () =>
      answer(401, JSON.stringify({ code: "unauthorized", message: "Log in" })),
    );
    vi.stubGlobal("fetch", fetchMock);
    const failure = await apiRequest("GET", "/api/admin/me").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(errorStatus(failure)).toBe(401);
    expect((failure as ApiError).code).toBe("unauthorized");
  });

  afterEach(() => vi.unstubAllGlobals());
});

describe("isApiErrorBody", () => {
  // The hand-written check (the public bundle has no zod) agrees with the contract's schema.
  const samples: unknown[] = [
    VALIDATION,
    { code: "not_found", message: "Niet gevonden" },
    { code: "conflict", message: "y", fields: [] },
    { code: "conflict", message: "y", fields: [{ path: "a" }] },
    { code: "conflict", message: "y", fields: "a" },
    { code: "conflict" },
    { message: "y" },
    { code: 1, message: "y" },
    null,
    "text",
    [],
  ];
  it.each(samples.map((sample) => [JSON.stringify(sample), sample]))("%s", (_, sample) => {
    expect(isApiErrorBody(sample)).toBe(ApiErrorSchema.safeParse(sample).success);
  });
});

describe("userErrorMessage", () => {
  it("shows the server's ApiError message", () => {
    const body: ApiErrorSchema = { code: "validation_failed", message: "Voer een geldige auto URL in" };
    expect(userErrorMessage(new ApiError(400, body, JSON.stringify(body)), FALLBACK)).toBe(
      "Voer een geldige auto URL in",
    );
  });

  it("shows the status line for a non-JSON body", () => {
    expect(userErrorMessage(new ApiError(502, null, "Bad Gateway"), FALLBACK)).toBe("502: Bad Gateway");
  });

  it("uses the fallback for network failures and unknown values", () => {
    expect(userErrorMessage(new TypeError("Failed to fetch"), FALLBACK)).toBe(FALLBACK);
    expect(userErrorMessage("boom", FALLBACK)).toBe(FALLBACK);
    expect(userErrorMessage(new Error("500: {}"), FALLBACK)).toBe(FALLBACK);
    const empty: ApiErrorSchema = { code: "internal", message: "" };
    expect(userErrorMessage(new ApiError(500, empty, JSON.stringify(empty)), FALLBACK)).toBe(FALLBACK);
  });
});

describe("fieldErrors and errorStatus", () => {
  it("read an ApiError only", () => {
    const error = new ApiError(400, VALIDATION, JSON.stringify(VALIDATION));
    expect(fieldErrors(error).message).toBe("Maximaal 5000 tekens");
    expect(errorStatus(error)).toBe(400);
    expect(fieldErrors(new Error(`400: ${JSON.stringify(VALIDATION)}`))).toEqual({});
    expect(errorStatus(new Error("401: nope"))).toBeUndefined();
  });
});

describe("queryUrl", () => {
  it("joins key segments with slashes", () => {
    expect(queryUrl(["/api/admin/lease-requests", "abc"])).toBe("/api/admin/lease-requests/abc");
  });
});
