import { count, eq } from "drizzle-orm";
import type { Database } from "@lease/platform";
import { admins } from "../db/schema";

export type AdminRow = typeof admins.$inferSelect;

export function adminsRepository(db: Database) {
  return {
    async findByUsername(username: string): Promise<AdminRow | undefined> {
      const rows = await db.select().from(admins).where(eq(admins.username, username)).limit(1);
      return rows[0];
    },
    async count(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(admins);
      return row?.n ?? 0;
    },
    async create(username: string, passwordHash: string): Promise<AdminRow> {
      const [row] = await db.insert(admins).values({ username, password: passwordHash }).returning();
      if (!row) throw new Error("insert returned nothing");
      return row;
    },
    async setPassword(username: string, passwordHash: string): Promise<boolean> {
      const rows = await db
        .update(admins)
        .set({ password: passwordHash })
        .where(eq(admins.username, username))
        .returning({ id: admins.id });
      return rows.length > 0;
    },
    async remove(username: string): Promise<boolean> {
      const rows = await db.delete(admins).where(eq(admins.username, username)).returning({ id: admins.id });
      return rows.length > 0;
    },
  };
}
export type AdminsRepository = ReturnType<typeof adminsRepository>;
