import { sql } from "drizzle-orm";
import type { Database } from "@lease/platform";

/** The gateway's part of people's data: the team's own addresses are never a data subject here. */
export function privacyRepository(db: Database) {
  return {
    /**
     * Whether the address is an admin's username (any letter case), now or before: an admin
     * account's data and its audit trail are the team's, not a person's to export or erase.
     */
    async isStaffAddress(email: string): Promise<boolean> {
      const r = await db.execute<{ hit: boolean }>(
        sql`SELECT EXISTS (SELECT 1 FROM gateway.admins WHERE lower(username) = ${email})
               OR EXISTS (SELECT 1 FROM gateway.audit_log
                           WHERE action LIKE 'admin.%' AND lower(target) = ${email}) AS hit`,
      );
      return Boolean(r.rows[0]?.hit);
    },
  };
}
export type GatewayPrivacyRepository = ReturnType<typeof privacyRepository>;
