import { sql } from "drizzle-orm";
import { outboxTable } from "@lease/platform/outbox-table";
import { bigint, boolean, index, pgSchema, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const gateway = pgSchema("gateway");

/** Jobs for other services, written in the change's transaction (libs/platform outboxTable). */
export const outbox = outboxTable(gateway);

/** Orders the admins' states told to leads (leads.staff jobs may arrive out of order). */
export const staffRevision = gateway.sequence("staff_revision");

export const admins = gateway.table(
  "admins",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    username: text("username").notNull().unique(),
    /** argon2id encoded hash, never the password itself. */
    password: text("password").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set by another admin: a disabled admin cannot sign in (and their sessions have ended). */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** A one-time password from the panel: the admin chooses their own at the next sign-in. */
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    /** The TOTP secret, AES-256-GCM encrypted (domain/secret-box.ts); null without two-factor sign-in. */
    totpSecret: text("totp_secret"),
    /** Null while the secret is only being set up (not yet confirmed with a first code). */
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /** The 30-second step of the last code accepted: a code is never accepted twice. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** When a one-time password from the panel stops working (72 hours); null for an own password. */
    oneTimePasswordExpiresAt: timestamp("one_time_password_expires_at", { withTimezone: true }),
    /** Gets new leads by the assignment rule (leads hears of it through the outbox). */
    takesNewLeads: boolean("takes_new_leads").notNull().default(true),
    /** Where the admin's own notices go ("Mijn account"); null: none. Told to leads with the rest. */
    notifyEmail: text("notify_email"),
    /** Wants an e-mail when one of their leads passes its response deadline. */
    overdueEmail: boolean("overdue_email").notNull().default(false),
    /** Wants the weekly summary by e-mail (Monday 08:00 Amsterdam time). */
    weeklySummary: boolean("weekly_summary").notNull().default(false),
  },
  // One account per name, whatever its case: "SEC-NOTE" and "sec-note" cannot both exist.
  (t) => [uniqueIndex("admins_username_lower_idx").on(sql`lower(${t.username})`)],
);

/**
 * The names of removed admins (lower case), never given again: an entry or note that names one
 * can only mean that account.
 */
export const retiredUsernames = gateway.table("retired_usernames", {
  username: text("username").primaryKey(),
  adminId: uuid("admin_id").notNull(),
  removedAt: timestamp("removed_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Who did what when (sign-ins, admin account changes); kept two years (AUDIT_RETENTION_DAYS). */
export const auditLog = gateway.table(
  "audit_log",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    actor: text("actor").notNull(),
    /** The acting admin's id (immutable; the username is shown); null for entries from before. */
    actorId: uuid("actor_id"),
    action: text("action").notNull(),
    target: text("target"),
    detail: text("detail"),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_actor_at_idx").on(t.actor, t.at)],
);

/** One-time recovery codes for two-factor sign-in, stored as SHA-256 hashes. */
export const adminRecoveryCodes = gateway.table(
  "admin_recovery_codes",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    adminId: uuid("admin_id")
      .notNull()
      .references(() => admins.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("admin_recovery_codes_admin_idx").on(t.adminId)],
);
