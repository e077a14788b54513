import { eq } from "drizzle-orm";
import { DEFAULT_RESPONSE_SETTINGS, type ResponseSettings } from "@lease/contracts";
import { auditEvent, type Database } from "@lease/platform";
import { responseSettings } from "../db/schema";
import { queueAudit } from "./lease-requests";

export interface StoredResponseSettings {
  settings: ResponseSettings;
  updatedAt: Date | null;
}

/** The response settings (one row; none: the defaults). */
export function responseSettingsRepository(db: Database) {
  return {
    async get(): Promise<StoredResponseSettings> {
      const [row] = await db.select().from(responseSettings).where(eq(responseSettings.id, 1));
      // Stored settings keep whatever fields a later version adds at their defaults.
      return row
        ? { settings: { ...DEFAULT_RESPONSE_SETTINGS, ...row.settings }, updatedAt: row.updatedAt }
        : { settings: DEFAULT_RESPONSE_SETTINGS, updatedAt: null };
    },

    /** Stores the settings; the change (its fields, never a value) is audited in the same transaction. */
    async save(settings: ResponseSettings, by: string, changed: string[]): Promise<StoredResponseSettings> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(responseSettings)
          .values({ id: 1, settings, updatedAt: new Date() })
          .onConflictDoUpdate({ target: responseSettings.id, set: { settings, updatedAt: new Date() } })
          .returning();
        if (changed.length > 0)
          await queueAudit(tx, auditEvent(by, "settings.response_changed", null, changed.join(", ")));
        return { settings: row!.settings, updatedAt: row!.updatedAt };
      });
    },
  };
}
export type ResponseSettingsRepository = ReturnType<typeof responseSettingsRepository>;
