// The e-mail templates of the compose window (email-templates.ts).
import { describe, expect, it } from "vitest";
import { DEFAULT_FOLLOW_UP_TEMPLATE, type EmailTemplate } from "@lease/contracts";
import { EMAIL_TEMPLATES_MAX } from "../repositories/email-templates";
import { useMailerHarness } from "../testing";

// Staff keep e-mail templates in the panel; the compose window offers them. The follow-up text the
// compose window always began with is the first, default template; a placeholder left unfilled is
// refused before anything is sent.

const h = useMailerHarness({ label: "templates" });

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${h.mailer.url}${path}`, {
    method,
    headers: { "content-type": "application/json", cookie: h.cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const list = async () => (await (await call("GET", "/api/admin/email-templates")).json()) as EmailTemplate[];

describe("GET /api/admin/email-templates · POST /api/admin/email-templates · PUT /api/admin/email-templates/{id} · DELETE /api/admin/email-templates/{id}", () => {
  describe("e-mail templates", () => {
    it("start with the follow-up text as the one default template, made once however often the mailer starts", async () => {
      const [first, ...rest] = await list();
      expect(first).toMatchObject({ ...DEFAULT_FOLLOW_UP_TEMPLATE, isDefault: true });
      expect(rest).toEqual([]);
      expect((await fetch(`${h.mailer.url}/api/admin/email-templates`)).status).toBe(401);
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

    it("are audited like the other settings: who added, changed (which fields) and removed which template", async () => {
      const audits = async () =>
        (
          await h.sql.query(
            `SELECT payload->>'action' AS action, payload->>'actor' AS actor, payload->>'target' AS target,
                    payload->>'detail' AS detail
               FROM mailer.outbox WHERE job_name = 'audit.record' AND payload->>'action' LIKE 'settings.email_template_%'
              ORDER BY payload->>'at', id`,
          )
        ).rows as { action: string; actor: string; target: string; detail: string | null }[];
      const before = (await audits()).length;
      const add = await call("POST", "/api/admin/email-templates", {
        name: "Herinnering",
        subject: "Nog vragen?",
        body: "Beste {{klant}}, heeft u nog vragen over de offerte?",
      });
      expect(add.status).toBe(201);
      const { id } = (await add.json()) as EmailTemplate;
      // A refused change stores no entry.
      expect(
        (await call("PUT", `/api/admin/email-templates/${id}`, { name: "", subject: "", body: "" })).status,
      ).toBe(400);
      const change = await call("PUT", `/api/admin/email-templates/${id}`, {
        name: "Herinnering",
        subject: "Nog vragen over uw offerte?",
        body: "Beste {{klant}}, heeft u nog vragen over de offerte? Bel gerust.",
      });
      expect(change.status).toBe(200);
      expect((await call("DELETE", `/api/admin/email-templates/${id}`)).status).toBe(204);
      expect((await call("DELETE", `/api/admin/email-templates/${id}`)).status).toBe(404);
      const entries = (await audits()).slice(before);
      expect(entries).toEqual([
        { action: "settings.email_template_created", actor: "admin", target: id, detail: null },
        { action: "settings.email_template_changed", actor: "admin", target: id, detail: "subject, body" },
        { action: "settings.email_template_deleted", actor: "admin", target: id, detail: null },
      ]);
    });

    it(`are at most ${EMAIL_TEMPLATES_MAX}: one more is refused with a Dutch 422 before anything is stored`, async () => {
      const existing = (await list()).length;
      await h.sql.query(
        `INSERT INTO mailer.email_templates (name, subject, body)
         SELECT 'Sjabloon ' || i, 'Onderwerp', 'Een tekst van het sjabloon' FROM generate_series(1, $1::int) i`,
        [EMAIL_TEMPLATES_MAX - existing - 1],
      );
      const last = await call("POST", "/api/admin/email-templates", {
        name: "De laatste",
        subject: "Onderwerp",
        body: "Dit is het laatste sjabloon dat past.",
      });
      expect(last.status).toBe(201);
      const more = await call("POST", "/api/admin/email-templates", {
        name: "Een te veel",
        subject: "Onderwerp",
        body: "Dit sjabloon past er niet meer bij.",
      });
      expect(more.status).toBe(422);
      expect(((await more.json()) as { message: string }).message).toContain("verwijder er een");
      expect((await list()).length).toBe(EMAIL_TEMPLATES_MAX);
      const count = await h.sql.query("SELECT count(*)::int AS n FROM mailer.email_templates");
      expect(count.rows[0].n).toBe(EMAIL_TEMPLATES_MAX);
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
});
