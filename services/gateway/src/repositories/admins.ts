import { and, asc, count, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "@lease/platform";
import { adminRecoveryCodes, admins, outbox, retiredUsernames } from "../db/schema";

export type AdminRow = typeof admins.$inferSelect;

/** How long a one-time password from the panel signs in (then another admin gives a new one). */
export const ONE_TIME_PASSWORD_HOURS = 72;

/** Why a name cannot be given: an admin has it (in any case), or a removed admin had it. */
export type NameRefusal = "taken" | "retired";

/** Why a disable or removal was refused: the acting admin themself, or the last active admin. */
export type GuardedChange =
  { ok: true; row: AdminRow } | { ok: false; reason: "not_found" | "self" | "last_active" };

/**
 * Tells leads an admin's state as it now is (a leads.staff job through the outbox, in the caller's
 * transaction): who may own leads and who takes new ones. A removed admin is told from its last row.
 */
async function announceStaff(tx: Database, row: AdminRow, removed = false): Promise<void> {
  const payload = sql`jsonb_build_object('adminId', ${row.id}::uuid, 'username', ${row.username}::text,
    'active', ${!removed && !row.disabledAt}::boolean, 'removed', ${removed}::boolean,
    'takesNewLeads', ${row.takesNewLeads}::boolean, 'revision', nextval('gateway.staff_revision'),
    'notifyEmail', ${row.notifyEmail}::text, 'overdueEmail', ${row.overdueEmail}::boolean,
    'weeklySummary', ${row.weeklySummary}::boolean)`;
  await tx.insert(outbox).values({ jobName: "leads.staff", payload });
}

export function adminsRepository(db: Database) {
  /**
   * A disable or removal, one at a time (an advisory lock), so two admins disabling each other at
   * once cannot leave no active admin. Refuses the acting admin and the last active admin.
   */
  const guarded = (
    actor: string,
    id: string,
    change: (tx: Database, row: AdminRow) => Promise<AdminRow | undefined>,
  ): Promise<GuardedChange> =>
    db.transaction(async (tx): Promise<GuardedChange> => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('gateway:admins'))`);
      const [row] = await tx.select().from(admins).where(eq(admins.id, id)).limit(1);
      if (!row) return { ok: false, reason: "not_found" };
      if (row.username === actor) return { ok: false, reason: "self" };
      if (!row.disabledAt) {
        const [others] = await tx
          .select({ n: count() })
          .from(admins)
          .where(and(isNull(admins.disabledAt), ne(admins.id, id)));
        if ((others?.n ?? 0) === 0) return { ok: false, reason: "last_active" };
      }
      const changed = await change(tx as unknown as Database, row);
      return changed ? { ok: true, row: changed } : { ok: false, reason: "not_found" };
    });

  const retire = (tx: Database, row: AdminRow) =>
    tx
      .insert(retiredUsernames)
      .values({ username: row.username.toLowerCase(), adminId: row.id })
      .onConflictDoNothing();

  return {
    async findByUsername(username: string): Promise<AdminRow | undefined> {
      const rows = await db.select().from(admins).where(eq(admins.username, username)).limit(1);
      return rows[0];
    },
    async findById(id: string): Promise<AdminRow | undefined> {
      const rows = await db.select().from(admins).where(eq(admins.id, id)).limit(1);
      return rows[0];
    },
    /** Every admin by username (a team: tens of rows at most, bounded by who may create them). */
    list(): Promise<AdminRow[]> {
      return db.select().from(admins).orderBy(asc(admins.username)).limit(1000);
    },
    async count(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(admins);
      return row?.n ?? 0;
    },
    async activeCount(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(admins).where(isNull(admins.disabledAt));
      return row?.n ?? 0;
    },
    /**
     * A new admin, or why the name cannot be had: another admin has it in any case ("taken"), or
     * a removed admin had it ("retired": names are never given again). A one-time password
     * (mustChangePassword) signs in for ONE_TIME_PASSWORD_HOURS.
     */
    async create(
      username: string,
      passwordHash: string,
      opts: { mustChangePassword?: boolean } = {},
    ): Promise<AdminRow | NameRefusal> {
      const [retired] = await db
        .select({ username: retiredUsernames.username })
        .from(retiredUsernames)
        .where(eq(retiredUsernames.username, username.toLowerCase()))
        .limit(1);
      if (retired) return "retired";
      const oneTime = opts.mustChangePassword ?? false;
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(admins)
          .values({
            username,
            password: passwordHash,
            mustChangePassword: oneTime,
            oneTimePasswordExpiresAt: oneTime
              ? new Date(Date.now() + ONE_TIME_PASSWORD_HOURS * 60 * 60_000)
              : null,
          })
          .onConflictDoNothing()
          .returning();
        if (created) await announceStaff(tx as unknown as Database, created);
        return created;
      });
      return row ?? "taken";
    },
    /** A new password chosen by the admin (or set by the CLI): no longer a one-time one. */
    async setPassword(username: string, passwordHash: string): Promise<boolean> {
      const rows = await db
        .update(admins)
        .set({ password: passwordHash, mustChangePassword: false, oneTimePasswordExpiresAt: null })
        .where(eq(admins.username, username))
        .returning({ id: admins.id });
      return rows.length > 0;
    },
    async recordLogin(id: string): Promise<void> {
      await db.update(admins).set({ lastLoginAt: new Date() }).where(eq(admins.id, id));
    },
    /** Removes an admin; the name is retired with it (never given again). */
    async remove(username: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx.delete(admins).where(eq(admins.username, username)).returning();
        if (rows[0]) {
          await retire(tx as unknown as Database, rows[0]);
          await announceStaff(tx as unknown as Database, rows[0], true);
        }
        return rows.length > 0;
      });
    },
    setDisabled(actor: string, id: string, disabled: boolean): Promise<GuardedChange> {
      if (!disabled) {
        return db.transaction(async (tx): Promise<GuardedChange> => {
          const [row] = await tx
            .update(admins)
            .set({ disabledAt: null })
            .where(eq(admins.id, id))
            .returning();
          if (!row) return { ok: false, reason: "not_found" };
          await announceStaff(tx as unknown as Database, row);
          return { ok: true, row };
        });
      }
      return guarded(actor, id, async (tx, row) => {
        if (row.disabledAt) return row;
        const [changed] = await tx
          .update(admins)
          .set({ disabledAt: new Date() })
          .where(eq(admins.id, id))
          .returning();
        if (changed) await announceStaff(tx, changed);
        return changed;
      });
    },
    /** The admin's own notices ("Mijn account"); told to leads in the same transaction. */
    async setNotices(
      id: string,
      notices: Partial<Pick<AdminRow, "notifyEmail" | "overdueEmail" | "weeklySummary">>,
    ): Promise<AdminRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx.update(admins).set(notices).where(eq(admins.id, id)).returning();
        if (row) await announceStaff(tx as unknown as Database, row);
        return row;
      });
    },
    /** The admin's switch "Krijgt nieuwe aanvragen"; told to leads in the same transaction. */
    async setTakesNewLeads(id: string, takesNewLeads: boolean): Promise<AdminRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx.update(admins).set({ takesNewLeads }).where(eq(admins.id, id)).returning();
        if (row) await announceStaff(tx as unknown as Database, row);
        return row;
      });
    },
    removeById(actor: string, id: string): Promise<GuardedChange> {
      return guarded(actor, id, async (tx) => {
        const [removed] = await tx.delete(admins).where(eq(admins.id, id)).returning();
        if (removed) {
          await retire(tx, removed);
          await announceStaff(tx, removed, true);
        }
        return removed;
      });
    },

    /** A new, not yet confirmed authenticator secret (sealed); refused while one is enabled. */
    async setPendingTotp(id: string, sealedSecret: string): Promise<boolean> {
      const rows = await db
        .update(admins)
        .set({ totpSecret: sealedSecret, totpEnabledAt: null, totpLastStep: null })
        .where(and(eq(admins.id, id), isNull(admins.totpEnabledAt)))
        .returning({ id: admins.id });
      return rows.length > 0;
    },
    /** Confirmed: two-factor sign-in is on, with fresh recovery codes (their hashes). */
    async enableTotp(id: string, step: number, recoveryCodeHashes: string[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(admins)
          .set({ totpEnabledAt: new Date(), totpLastStep: step })
          .where(and(eq(admins.id, id), isNull(admins.totpEnabledAt), sql`${admins.totpSecret} IS NOT NULL`))
          .returning({ id: admins.id });
        if (rows.length === 0) return false;
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, id));
        await tx
          .insert(adminRecoveryCodes)
          .values(recoveryCodeHashes.map((codeHash) => ({ adminId: id, codeHash })));
        return true;
      });
    },
    async disableTotp(id: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(admins)
          .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
          .where(eq(admins.id, id));
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, id));
      });
    },
    /** Records the step of an accepted code; false when that step (or a later one) was used already. */
    async useTotpStep(id: string, step: number): Promise<boolean> {
      const rows = await db
        .update(admins)
        .set({ totpLastStep: step })
        .where(and(eq(admins.id, id), or(isNull(admins.totpLastStep), lt(admins.totpLastStep, step))))
        .returning({ id: admins.id });
      return rows.length > 0;
    },
    /** Spends one recovery code; false when it is no unused code of this admin. */
    async useRecoveryCode(id: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .update(adminRecoveryCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(adminRecoveryCodes.adminId, id),
            eq(adminRecoveryCodes.codeHash, codeHash),
            isNull(adminRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: adminRecoveryCodes.id });
      return rows.length > 0;
    },
    async recoveryCodesLeft(id: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(adminRecoveryCodes)
        .where(and(eq(adminRecoveryCodes.adminId, id), isNull(adminRecoveryCodes.usedAt)));
      return row?.n ?? 0;
    },
  };
}
export type AdminsRepository = ReturnType<typeof adminsRepository>;
