import { eq } from "drizzle-orm";
import type { Database } from "@lease/platform";
import { companySettings } from "../db/schema";

export type CompanySettingsRow = typeof companySettings.$inferSelect;
/** Columns an update may set; undefined leaves a column as it is. */
export type CompanySettingsPatch = Partial<
  Omit<CompanySettingsRow, "id" | "singleton" | "createdAt" | "updatedAt">
>;

export function companySettingsRepository(db: Database) {
  return {
    /** The single row, created empty when missing (concurrent callers share one row). */
    async get(): Promise<CompanySettingsRow> {
      const read = async () => (await db.select().from(companySettings).limit(1))[0];
      const existing = await read();
      if (existing) return existing;
      await db.insert(companySettings).values({}).onConflictDoNothing({ target: companySettings.singleton });
      const created = await read();
      if (!created) throw new Error("companySettings row missing after insert");
      return created;
    },
    /** Writes only the given columns, in one statement: concurrent updates never add a row. */
    async update(patch: CompanySettingsPatch): Promise<CompanySettingsRow> {
      const now = new Date();
      const [row] = await db
        .insert(companySettings)
        .values({ ...patch, updatedAt: now })
        .onConflictDoUpdate({ target: companySettings.singleton, set: { ...patch, updatedAt: now } })
        .returning();
      if (!row) throw new Error("company settings upsert returned nothing");
      return row;
    },
    /**
     * Replaces the stored provider key only while it is still `expected`, so a key an admin saves
     * meanwhile is never overwritten. True when replaced.
     */
    async replaceEncryptedKey(expected: string, replacement: string): Promise<boolean> {
      const rows = await db
        .update(companySettings)
        .set({ sendgridApiKeyEncrypted: replacement })
        .where(eq(companySettings.sendgridApiKeyEncrypted, expected))
        .returning({ id: companySettings.id });
      return rows.length > 0;
    },
  };
}
export type CompanySettingsRepository = ReturnType<typeof companySettingsRepository>;
