import { asc, desc, eq, sql } from "drizzle-orm";
import { DEFAULT_FOLLOW_UP_TEMPLATE, type EmailTemplate, type EmailTemplateBody } from "@lease/contracts";
import { HttpError, notFound, type Database } from "@lease/platform";
import { emailTemplates } from "../db/schema";

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
const isDuplicate = (err: unknown) => (err as { code?: string }).code === "23505";

/** Staff's templates; names are unique whatever their letter case. */
export function emailTemplatesRepository(db: Database) {
  const write = async (work: () => Promise<Row[]>) => {
    try {
      return await work();
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
        .limit(500);
      return rows.map(toTemplate);
    },

    async create(body: EmailTemplateBody): Promise<EmailTemplate> {
      const [row] = await write(() => db.insert(emailTemplates).values(body).returning());
      return toTemplate(row!);
    },

    async update(id: string, body: EmailTemplateBody): Promise<EmailTemplate> {
      const [row] = await write(() =>
        db
          .update(emailTemplates)
          .set({ ...body, updatedAt: sql`now()` })
          .where(eq(emailTemplates.id, id))
          .returning(),
      );
      if (!row) throw notFound(NOT_FOUND);
      return toTemplate(row);
    },

    async remove(id: string): Promise<void> {
      const [row] = await db.select().from(emailTemplates).where(eq(emailTemplates.id, id));
      if (!row) throw notFound(NOT_FOUND);
      if (row.isDefault)
        throw new HttpError(
          409,
          "default_template",
          "De standaard follow-up kan niet worden verwijderd; pas hem aan als u een andere tekst wilt",
        );
      await db.delete(emailTemplates).where(eq(emailTemplates.id, id));
    },
  };
}
export type EmailTemplatesRepository = ReturnType<typeof emailTemplatesRepository>;
