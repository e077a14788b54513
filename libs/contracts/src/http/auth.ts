import { z } from "zod";

export const NEW_PASSWORD_MIN_LENGTH = 12;
/** Shown for every failed login, so it never tells whether the username exists. */
export const LOGIN_FAILED_MESSAGE = "Onjuiste inloggegevens";

export const LoginBody = z.strictObject({
  username: z
    .string({ error: "Gebruikersnaam is verplicht" })
    .trim()
    .min(1, { error: "Gebruikersnaam is verplicht" })
    .max(100, { error: "Maximaal 100 tekens" }),
  password: z
    .string({ error: "Wachtwoord is verplicht" })
    .min(1, { error: "Wachtwoord is verplicht" })
    .max(1024, { error: "Maximaal 1024 tekens" }),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** Response of POST /api/admin/login and GET /api/admin/me. */
export const AdminSession = z
  .object({
    admin: z.object({
      id: z.string().describe("The admin's immutable id"),
      username: z.string(),
    }),
  })
  .describe("The signed-in admin; the session itself travels in the admin_session cookie");
export type AdminSession = z.infer<typeof AdminSession>;
