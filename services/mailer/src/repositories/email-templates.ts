import { asc, desc, eq, sql } from "drizzle-orm";
import { DEFAULT_FOLLOW_UP_TEMPLATE, type EmailTemplate, type EmailTemplateBody } from "@lease/contracts";
import { HttpError, auditEvent, notFound, queueAuditEvents, type Database } from "@lease/platform";
import { emailTemplates, outbox } from "../db/schema";

type Row = typeof emailTemplates.$inferSelect;
const toTemplate = (r: Row): EmailTemplate => ({
  id: r.id,
  name: r.name,
  subject: r.subject,
  body: r.body,
  isDefault: r.isDefault,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const NOT_FOUND = "Sjabloon niet gevonden";
const duplicateName = () =>
  new HttpError(409, "duplicate_name", "Er is al een sjabloon met deze naam; kies een andere naam");
const isDuplicate = (err: unknown) => (err as { code?: string } | undefined)?.code === "23505";

/** Staff's templates, at most this many (the compose window lists them all). */
export const EMAIL_TEMPLATES_MAX = 200;

/**
 * Staff's templates; names are unique whatever their letter case. Each change is audited like the
 * other settings (`settings.email_template_*`, the template's id; for a change, the fields changed),
 * stored in the change's transaction; `audited` wakes the outbox relay after.
 */
export function emailTemplatesRepository(db: Database, audited: () => void = () => undefined) {
  const write = async <T>(work: () => Promise<T>) => {
    try {
      const result = await work();
      audited();
      return result;
    } catch (err) {
      if (isDuplicate(err) || isDuplicate((err as { cause?: unknown }).cause)) throw duplicateName();
      throw err;
    }
  };
  return {
    /** The follow-up the compose window always began with, made once (every replica may try). */
    async ensureDefault(): Promise<void> {
      await db.execute(sql`INSERT INTO ${emailTemplates} (name, subject, body, is_default)
        SELECT ${DEFAULT_FOLLOW_UP_TEMPLATE.name}, ${DEFAULT_FOLLOW_UP_TEMPLATE.subject}, ${DEFAULT_FOLLOW_UP_TEMPLATE.body}, true
        WHERE NOT EXISTS (SELECT 1 FROM ${emailTemplates} WHERE is_default)
        ON CONFLICT DO NOTHING`);
    },

    async list(): Promise<EmailTemplate[]> {
      const rows = await db
        .select()
        .from(emailTemplates)
        .orderBy(desc(emailTemplates.isDefault), asc(sql`lower(${emailTemplates.name})`))
        .limit(EMAIL_TEMPLATES_MAX);
      return rows.map(toTemplate);
    },

    async create(body: EmailTemplateBody, actor: string): Promise<EmailTemplate> {
      const row = await write(() =>
        db.transaction(async (tx) => {
          // One count at a time, so two creates at once cannot both pass the bound.
          await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('mailer.email_templates'))`);
          const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(emailTemplates);
          if (n >= EMAIL_TEMPLATES_MAX)
            throw new HttpError(
              422,
              "too_many_templates",
              `Er zijn al ${EMAIL_TEMPLATES_MAX} sjablonen; verwijder er een voordat u een nieuwe maakt`,
            );
          const [created] = await tx.insert(emailTemplates).values(body).returning();
          await queueAuditEvents(tx, outbox, [
            auditEvent(actor, "settings.email_template_created", created!.id),
          ]);
          return created!;
        }),
      );
      return toTemplate(row);
    },

    async update(id: string, body: EmailTemplateBody, actor: string): Promise<EmailTemplate> {
      const row = await write(() =>
        db.transaction(async (tx) => {
          const [before] = await tx
            .select()
            .from(emailTemplates)
            .where(eq(emailTemplates.id, id))
            .for("update");
          if (!before) throw notFound(NOT_FOUND);
          const [after] = await tx
            .update(emailTemplates)
            .set({ ...body, updatedAt: sql`now()` })
            .where(eq(emailTemplates.id, id))
            .returning();
          const changed = (["name", "subject", "body"] as const).filter((f) => before[f] !== after![f]);
          if (changed.length > 0)
            await queueAuditEvents(tx, outbox, [
              auditEvent(actor, "settings.email_template_changed", id, changed.join(", ")),
            ]);
          return after!;
        }),
      );
      return toTemplate(row);
    },

    async remove(id: string, actor: string): Promise<void> {
      await write(() =>
        db.transaction(async (tx) => {
          const [row] = await tx.select().from(emailTemplates).where(eq(emailTemplates.id, id)).for("update");
          if (!row) throw notFound(NOT_FOUND);
          if (row.isDefault)
            throw new HttpError(
              409,
              "default_template",
              "De standaard follow-up kan niet worden verwijderd; pas hem aan als u een andere tekst wilt",
            );
          await tx.delete(emailTemplates).where(eq(emailTemplates.id, id));
          await queueAuditEvents(tx, outbox, [auditEvent(actor, "settings.email_template_deleted", id)]);
        }),
      );
    },
  };
}
export type EmailTemplatesRepository = ReturnType<typeof emailTemplatesRepository>;
