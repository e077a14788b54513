import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FOLLOW_UP_TEMPLATE, type EmailTemplate } from "@lease/contracts";
import type { RunningService } from "@lease/platform";
import { adminCookie, createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startMailer } from "./service";
import { startSettingsFixture } from "./testing";

// Staff keep e-mail templates in the panel; the compose window offers them. The follow-up text the
// compose window always began with is the first, default template; a placeholder left unfilled is
// refused before anything is sent.

let db: TestDatabase;
let settings: Awaited<ReturnType<typeof startSettingsFixture>>;
let mailer: RunningService;
let cookie: string;

beforeAll(async () => {
  db = await createTestDatabase("templates");
  const base = testEnv({ DATABASE_URL: db.url });
  settings = await startSettingsFixture(base.INTERNAL_TOKEN!);
  const env = { ...base, SETTINGS_URL: settings.url, LEADS_URL: "http://127.0.0.1:9" };
  mailer = await startMailer(env);
  cookie = await adminCookie(env);
});
afterAll(async () => {
  await mailer?.stop();
  await settings?.close();
  await db?.drop();
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${mailer.url}${path}`, {
    method,
    headers: { "content-type": "application/json", cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const list = async () => (await (await call("GET", "/api/admin/email-templates")).json()) as EmailTemplate[];

describe("e-mail templates", () => {
  it("start with the follow-up text as the one default template, made once however often the mailer starts", async () => {
    const [first, ...rest] = await list();
    expect(first).toMatchObject({ ...DEFAULT_FOLLOW_UP_TEMPLATE, isDefault: true });
    expect(rest).toEqual([]);
    expect((await fetch(`${mailer.url}/api/admin/email-templates`)).status).toBe(401);
  });

  it("are added, changed and removed; a name is unique whatever its case; the default is kept", async () => {
    const add = await call("POST", "/api/admin/email-templates", {
      name: "Offerte verstuurd",
      subject: "Uw offerte van {{bedrijfsnaam}}",
      body: "Beste {{klant}},\n\nIn de bijlage vindt u de offerte.\n\n{{mijn_naam}}",
    });
    expect(add.status).toBe(201);
    const added = (await add.json()) as EmailTemplate;
    const unknownField = await call("POST", "/api/admin/email-templates", { ...added, name: "Nog een" });
    expect(unknownField.status).toBe(400);
    const same = await call("POST", "/api/admin/email-templates", {
      name: "offerte VERSTUURD",
      subject: "x",
      body: "nog een tekst hier",
    });
    expect(same.status).toBe(409);
    expect(((await same.json()) as { message: string }).message).toContain("al een sjabloon");
    const changed = await call("PUT", `/api/admin/email-templates/${added.id}`, {
      name: "Offerte verstuurd",
      subject: "Uw offerte",
      body: "Beste {{klant}},\n\nZie bijlage.",
    });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as EmailTemplate).subject).toBe("Uw offerte");
    const empty = await call("PUT", `/api/admin/email-templates/${added.id}`, {
      name: "",
      subject: "",
      body: "",
    });
    expect(empty.status).toBe(400);
    expect((await call("DELETE", `/api/admin/email-templates/${added.id}`)).status).toBe(204);
    const standard = (await list())[0]!;
    const keep = await call("DELETE", `/api/admin/email-templates/${standard.id}`);
    expect(keep.status).toBe(409);
    expect((await list()).map((t) => t.name)).toEqual([DEFAULT_FOLLOW_UP_TEMPLATE.name]);
  });

  it("leave no placeholder unfilled in what is sent: refused with a message naming it", async () => {
    const res = await call("POST", "/api/admin/send-email", {
      to: "klant@bedrijf.nl",
      subject: "Uw offerte",
      message: "Beste {{klant}}, hierbij de offerte.",
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Vul {{klant}} in of haal het weg");
    const subject = await call("POST", "/api/admin/send-email", {
      to: "klant@bedrijf.nl",
      subject: "Offerte van {{ bedrijfsnaam }}",
      message: "Beste klant, hierbij de offerte.",
    });
    expect(subject.status).toBe(400);
  });
});
