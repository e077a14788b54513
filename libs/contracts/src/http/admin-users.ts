import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";
import { AdminSession, NEW_PASSWORD_MIN_LENGTH } from "./auth";

// Admin accounts managed in the panel ("Gebruikers"), the signed-in admin's own account (password,
// two-factor sign-in with TOTP) and the second steps of signing in.

/** Letters, digits and . _ @ - (the same rule as `npm run admin -- create`). */
export const ADMIN_USERNAME_PATTERN = /^[A-Za-z0-9._@-]{1,100}$/;
export const ADMIN_USERNAME_MESSAGE = "Gebruik 1 tot 100 letters, cijfers of . _ @ -";
/** How many one-time recovery codes two-factor sign-in gives. */
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_CODE_MESSAGE = "Vul de 6 cijfers uit je authenticator-app in";
export const NEW_PASSWORD_MESSAGE = `Het wachtwoord moet minimaal ${NEW_PASSWORD_MIN_LENGTH} tekens hebben`;

const password = (required: string) =>
  z.string({ error: required }).min(1, { error: required }).max(1024, { error: "Maximaal 1024 tekens" });
const newPassword = z
  .string({ error: "Nieuw wachtwoord is verplicht" })
  .min(NEW_PASSWORD_MIN_LENGTH, { error: NEW_PASSWORD_MESSAGE })
  .max(1024, { error: "Maximaal 1024 tekens" });
/** A sign-in ticket: 43 base64url characters, handed out by the first step. */
const ticket = z
  .string({ error: "Log opnieuw in" })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: "Log opnieuw in" })
  .describe("The ticket of the previous sign-in step");

/** What POST /api/admin/login answers when the password alone does not sign in. */
export const LoginNextStep = z
  .object({
    next: z
      .enum(["totp", "new_password"])
      .describe(
        "totp: POST /api/admin/login/totp with a code; new_password: POST /api/admin/login/new-password (a one-time password was used)",
      ),
    ticket: z.string().describe("Valid for 5 minutes and a few attempts; not a session"),
  })
  .describe("The password was right; one more step signs in");
export type LoginNextStep = z.infer<typeof LoginNextStep>;

export const LoginTotpBody = z.strictObject({
  ticket,
  code: z
    .string({ error: TOTP_CODE_MESSAGE })
    .trim()
    .min(1, { error: TOTP_CODE_MESSAGE })
    .max(32, { error: TOTP_CODE_MESSAGE })
    .describe("The 6-digit code of the authenticator app, or one of the recovery codes"),
});
export type LoginTotpBody = z.infer<typeof LoginTotpBody>;

export const LoginNewPasswordBody = z.strictObject({ ticket, newPassword });
export type LoginNewPasswordBody = z.infer<typeof LoginNewPasswordBody>;

export const ChangePasswordBody = z.strictObject({
  currentPassword: password("Huidig wachtwoord is verplicht"),
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const AdminAccount = z
  .object({
    username: z.string(),
    totpEnabled: z.boolean().describe("Two-factor sign-in with an authenticator app is on"),
    recoveryCodesLeft: z.number().int().describe("Unused recovery codes (0 without two-factor sign-in)"),
    notifyEmail: z
      .string()
      .nullable()
      .describe("Where the admin's own notices go (late leads, the weekly summary); null: none"),
    overdueEmail: z.boolean().describe("An e-mail when one of the admin's leads passes its deadline"),
    weeklySummary: z.boolean().describe("The weekly summary by e-mail, Monday 08:00 Amsterdam time"),
  })
  .describe("The signed-in admin's own account");
export type AdminAccount = z.infer<typeof AdminAccount>;

export const NOTIFY_EMAIL_MESSAGE = "Voer een geldig e-mailadres in";
export const NOTIFY_EMAIL_NEEDED_MESSAGE = "Vul eerst een e-mailadres in om e-mails te ontvangen";

/** The admin's own notices (PUT /api/admin/account): any of the fields; absent ones stay. */
export const UpdateAccountBody = z
  .strictObject({
    notifyEmail: z
      .email({ error: NOTIFY_EMAIL_MESSAGE })
      .max(254, { error: NOTIFY_EMAIL_MESSAGE })
      .nullable()
      .optional(),
    overdueEmail: z.boolean({ error: "Kies aan of uit" }).optional(),
    weeklySummary: z.boolean({ error: "Kies aan of uit" }).optional(),
  })
  .describe("The admin's notices: the address, and which e-mails they want");
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

export const TotpSetup = z
  .object({
    secret: z.string().describe("Base32, for typing into the app; shown during setup only"),
    uri: z.string().describe("otpauth://totp/… for the QR code"),
  })
  .describe("A new authenticator secret, active once confirmed with a first code");
export type TotpSetup = z.infer<typeof TotpSetup>;

export const TotpCodeBody = z.strictObject({
  code: z
    .string({ error: TOTP_CODE_MESSAGE })
    .trim()
    .regex(/^\d{6}$/, { error: TOTP_CODE_MESSAGE }),
});
export type TotpCodeBody = z.infer<typeof TotpCodeBody>;

export const RecoveryCodes = z
  .object({
    codes: z.array(z.string()).describe("Each signs in once instead of a code; shown this once only"),
  })
  .describe("Two-factor sign-in is on");
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

/** Starting two-factor sign-in takes the password: a left-open session alone cannot lock the owner out. */
export const TotpSetupBody = z.strictObject({
  currentPassword: password("Huidig wachtwoord is verplicht"),
});
export type TotpSetupBody = z.infer<typeof TotpSetupBody>;

const SECOND_FACTOR_MESSAGE = "Vul een code uit je authenticator-app of een herstelcode in";
/** Turning it off takes the password and a code of the app or a recovery code. */
export const TotpDisableBody = z.strictObject({
  currentPassword: password("Huidig wachtwoord is verplicht"),
  code: z
    .string({ error: SECOND_FACTOR_MESSAGE })
    .trim()
    .min(1, { error: SECOND_FACTOR_MESSAGE })
    .max(32, { error: SECOND_FACTOR_MESSAGE })
    .describe("The 6-digit code of the authenticator app, or one of the recovery codes"),
});
export type TotpDisableBody = z.infer<typeof TotpDisableBody>;

export const AdminUser = z
  .object({
    id: Uuid,
    username: z.string(),
    createdAt: IsoDateTime,
    lastLoginAt: IsoDateTime.nullable(),
    disabled: z.boolean(),
    mustChangePassword: z.boolean().describe("Has a one-time password not yet replaced"),
    totpEnabled: z.boolean(),
    takesNewLeads: z
      .boolean()
      .describe(
        'Gets new leads by the assignment rule (services/leads/README.md, "Owners and response times")',
      ),
  })
  .describe("An admin account (never its password or secrets)");
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserList = z.object({ items: z.array(AdminUser) }).describe("Every admin, by username");
export type AdminUserList = z.infer<typeof AdminUserList>;

export const CreateAdminUserBody = z.strictObject({
  username: z
    .string({ error: "Gebruikersnaam is verplicht" })
    .trim()
    .min(1, { error: "Gebruikersnaam is verplicht" })
    .regex(ADMIN_USERNAME_PATTERN, { error: ADMIN_USERNAME_MESSAGE }),
});
export type CreateAdminUserBody = z.infer<typeof CreateAdminUserBody>;

export const CreatedAdminUser = z
  .object({
    user: AdminUser,
    oneTimePassword: z
      .string()
      .describe("Shown this once; the new admin chooses their own password at the first sign-in"),
  })
  .describe("The new admin");
export type CreatedAdminUser = z.infer<typeof CreatedAdminUser>;

export const UpdateAdminUserBody = z
  .strictObject({
    disabled: z.boolean({ error: "Kies in- of uitschakelen" }).optional(),
    takesNewLeads: z.boolean({ error: "Kies of deze beheerder nieuwe aanvragen krijgt" }).optional(),
  })
  .refine((body) => body.disabled !== undefined || body.takesNewLeads !== undefined, {
    error: "Kies in- of uitschakelen, of of deze beheerder nieuwe aanvragen krijgt",
  });
export type UpdateAdminUserBody = z.infer<typeof UpdateAdminUserBody>;

export const AdminUserIdParam = z.object({ id: z.uuid({ error: "Ongeldig id" }) });
export type AdminUserIdParam = z.infer<typeof AdminUserIdParam>;

/** POST /api/admin/login: signed in, or one more step. */
export const LoginResponse = z.union([AdminSession, LoginNextStep]);
export type LoginResponse = z.infer<typeof LoginResponse>;
