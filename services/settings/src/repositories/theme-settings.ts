import { THEME_DEFAULTS, type ThemeValues } from "@lease/contracts";
import type { Database } from "@lease/platform";
import { themeSettings } from "../db/schema";

export type ThemeSettingsRow = typeof themeSettings.$inferSelect;

export function themeSettingsRepository(db: Database) {
  return {
    /** The single row, created with the defaults when missing. */
    async get(): Promise<ThemeSettingsRow> {
      const read = async () => (await db.select().from(themeSettings).limit(1))[0];
      const existing = await read();
      if (existing) return existing;
      await db
        .insert(themeSettings)
        .values({ ...THEME_DEFAULTS })
        .onConflictDoNothing({ target: themeSettings.singleton });
      const created = await read();
      if (!created) throw new Error("themeSettings row missing after insert");
      return created;
    },
    /** Writes only the given fields, in one statement. */
    async update(patch: Partial<ThemeValues>): Promise<ThemeSettingsRow> {
      const now = new Date();
      const [row] = await db
        .insert(themeSettings)
        .values({ ...THEME_DEFAULTS, ...patch, updatedAt: now })
        .onConflictDoUpdate({ target: themeSettings.singleton, set: { ...patch, updatedAt: now } })
        .returning();
      if (!row) throw new Error("theme settings upsert returned nothing");
      return row;
    },
  };
}
export type ThemeSettingsRepository = ReturnType<typeof themeSettingsRepository>;
