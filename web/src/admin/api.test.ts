import { afterEach, describe, expect, it, vi } from "vitest";
import { confirmTotp, stillSignedIn } from "./api";

// Turning on two-factor sign-in renews the session: the server closes this panel's sockets (4401)
// and answers with a new cookie. The close can come first; the session check must then wait for
// that answer instead of asking with the old cookie (a 401 that sent the panel to the sign-in page
// and took the recovery codes off the screen).
describe("stillSignedIn", () => {
  afterEach(() => vi.unstubAllGlobals());

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("asks only after a renewal of this session has its answer", async () => {
    const asked: string[] = [];
    let answerConfirm!: () => void;
    let renewed = false;
    vi.stubGlobal("fetch", (path: string) => {
      asked.push(path);
      if (path.endsWith("/totp/confirm"))
        return new Promise<Response>((resolve) => {
          answerConfirm = () => {
            renewed = true;
            resolve(json(200, { codes: Array.from({ length: 10 }, (_, i) => `code-${i}`) }));
          };
        });
      // The old cookie answers 401; the renewed one (after the confirm's answer) 200.
      return Promise.resolve(
        renewed
          ? json(200, { admin: { id: "6f1d7c1e-1b7a-4c53-9b7e-2f0f1a9c3d11", username: "collega" } })
          : json(401, { error: "unauthorized", message: "Niet ingelogd" }),
      );
    });
    const confirming = confirmTotp("123456");
    const check = stillSignedIn();
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual(["/api/admin/account/totp/confirm"]);
    answerConfirm();
    await confirming;
    expect(await check).toBe(true);
    expect(asked).toEqual(["/api/admin/account/totp/confirm", "/api/admin/me"]);
  });

  it("answers false for a session that really ended, with no renewal on its way", async () => {
    vi.stubGlobal("fetch", () =>
      Promise.resolve(json(401, { error: "unauthorized", message: "Niet ingelogd" })),
    );
    expect(await stillSignedIn()).toBe(false);
  });
});
