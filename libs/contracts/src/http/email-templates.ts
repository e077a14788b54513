import { z } from "zod";
import { IsoDateTime, Uuid } from "../entities/common";

// Staff's e-mail templates (the compose window offers them). A placeholder is `{{name}}`; the
// compose window fills those it knows (TEMPLATE_PLACEHOLDERS) from the lead, the company and the
// signed-in admin, and an e-mail with one left unfilled is refused before it is sent.

/** The placeholders the compose window fills, with what each becomes. */
export const TEMPLATE_PLACEHOLDERS = {
  klant: 'de bedrijfsnaam van de klant (of "klant")',
  auto_url: "de auto-URL van de aanvraag",
  mijn_naam: "uw eigen gebruikersnaam",
  bedrijfsnaam: "de naam van uw bedrijf",
  bedrijf_telefoon: "het telefoonnummer van uw bedrijf",
  bedrijf_email: "het e-mailadres van uw bedrijf",
} as const;
export type TemplatePlaceholder = keyof typeof TEMPLATE_PLACEHOLDERS;

/** `{{ name }}` in a template; any left in an e-mail was not filled. */
export const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]{1,40}?)\s*\}\}/g;

/** The first placeholder left in a text, or undefined. */
export function unfilledPlaceholder(text: string): string | undefined {
  return new RegExp(PLACEHOLDER_PATTERN.source).exec(text)?.[0];
}
export const unfilledPlaceholderMessage = (placeholder: string) =>
  `Vul ${placeholder} in of haal het weg: het zou zo bij de klant aankomen`;

const NAME_MESSAGE = "Geef de sjabloon een naam";
const SUBJECT_MESSAGE = "Onderwerp is verplicht";
const BODY_MESSAGE = "Bericht moet minimaal 10 karakters bevatten";

export const EmailTemplateBody = z
  .strictObject({
    name: z
      .string({ error: NAME_MESSAGE })
      .trim()
      .min(1, { error: NAME_MESSAGE })
      .max(100, { error: "Een naam mag hoogstens 100 tekens zijn" }),
    subject: z
      .string({ error: SUBJECT_MESSAGE })
      .trim()
      .min(1, { error: SUBJECT_MESSAGE })
      .max(200, { error: "Maximaal 200 tekens" })
      .refine((s) => !/[\r\n]/.test(s), { error: "Onderwerp mag geen regeleinden bevatten" }),
    body: z
      .string({ error: BODY_MESSAGE })
      .min(10, { error: BODY_MESSAGE })
      .max(20000, { error: "Maximaal 20000 tekens" })
      .refine((s) => !s.includes("\0"), { error: "Het bericht bevat een ongeldig teken" }),
  })
  .describe("A template: its name, subject and body, with {{placeholders}}");
export type EmailTemplateBody = z.infer<typeof EmailTemplateBody>;

export const EmailTemplate = z
  .object({
    id: Uuid,
    name: z.string(),
    subject: z.string(),
    body: z.string(),
    isDefault: z.boolean().describe("The follow-up the compose window starts with for a lead"),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .describe("A staff e-mail template");
export type EmailTemplate = z.infer<typeof EmailTemplate>;

export const EmailTemplateList = z.array(EmailTemplate);
export const EmailTemplateIdParam = z.object({ id: z.uuid({ error: "Ongeldig id" }) });

/** The first template: the follow-up text the compose window always began with. */
export const DEFAULT_FOLLOW_UP_TEMPLATE: EmailTemplateBody = {
  name: "Follow-up op een aanvraag",
  subject: "Follow-up op uw lease aanvraag - {{bedrijfsnaam}}",
  body: [
    "Beste {{klant}},",
    "",
    "Bedankt voor uw lease aanvraag voor de volgende auto: {{auto_url}}",
    "",
    "[Voeg hier uw persoonlijke bericht toe]",
    "",
    "Heeft u vragen? Neem gerust contact met ons op; onze gegevens staan onder dit bericht.",
    "",
    "Met vriendelijke groet,",
    "{{mijn_naam}}",
  ].join("\n"),
};
