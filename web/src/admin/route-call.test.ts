import { afterEach, describe, expect, it, vi } from "vitest";
import { callRoute, routeUrl } from "./route-call";

// The panel's calls are made from their contract entries: the URL from the path template and the
// answer parsed with the route's declared schema.
describe("routeUrl", () => {
  it("fills the path's parameters (encoded) and leaves empty query values out", () => {
    expect(routeUrl("GET", "/api/admin/lease-requests/{id}/history", { params: { id: "a/b" } })).toBe(
      "/api/admin/lease-requests/a%2Fb/history",
    );
    expect(
      routeUrl("GET", "/api/admin/lease-requests", {
        query: { q: "", status: "nieuw", page: 2, owner: undefined },
      }),
    ).toBe("/api/admin/lease-requests?status=nieuw&page=2");
  });
});

describe("callRoute", () => {
  afterEach(() => vi.unstubAllGlobals());
  const answer = (status: number, body?: unknown) => {
    const asked: { method: string; path: string; body: unknown }[] = [];
    vi.stubGlobal("fetch", (path: string, init: RequestInit) => {
      asked.push({ method: String(init.method), path, body: init.body });
      return Promise.resolve(
        new Response(body === undefined ? null : JSON.stringify(body), {
          status,
          headers: { "content-type": "application/json" },
        }),
      );
    });
    return asked;
  };

  it("sends the route's method, path and body, and parses the answer with its declared schema", async () => {
    const id = "6f1d7c1e-1b7a-4c53-9b7e-2f0f1a9c3d11";
    const asked = answer(200, { admin: { id, username: "collega" }, extra: true });
    expect(await callRoute("GET", "/api/admin/me")).toEqual({ admin: { id, username: "collega" } });
    expect(asked).toEqual([{ method: "GET", path: "/api/admin/me", body: undefined }]);
    answer(200, { admin: { id: "geen-uuid" } });
    await expect(callRoute("GET", "/api/admin/me")).rejects.toThrow();
  });

  it("answers nothing for a route whose success is a 204", async () => {
    const asked = answer(204);
    expect(await callRoute("DELETE", "/api/admin/users/{id}", { params: { id: "x" } })).toBeUndefined();
    expect(asked[0]).toMatchObject({ method: "DELETE", path: "/api/admin/users/x" });
  });
});
