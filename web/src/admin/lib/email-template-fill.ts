import type {
  AdminCompanySettings,
  EmailTemplate,
  LeaseRequest,
  TemplatePlaceholder,
} from "@lease/contracts";
import { PLACEHOLDER_PATTERN } from "@lease/contracts";

/** What the compose window knows to fill a template's placeholders with. */
export interface TemplateContext {
  request?: Pick<LeaseRequest, "companyName" | "carUrl"> | null;
  company?: Pick<AdminCompanySettings, "companyName" | "phoneNumber" | "emailAddress"> | null;
  /** The signed-in admin's username. */
  me?: string | null;
}

const filled = (value: string | null | undefined) => value?.trim() || undefined;

function valueOf(name: string, ctx: TemplateContext): string | undefined {
  const values: Record<TemplatePlaceholder, string | undefined> = {
    klant: ctx.request ? (filled(ctx.request.companyName) ?? "klant") : undefined,
    auto_url: filled(ctx.request?.carUrl),
    mijn_naam: filled(ctx.me),
    bedrijfsnaam: filled(ctx.company?.companyName),
    bedrijf_telefoon: filled(ctx.company?.phoneNumber),
    bedrijf_email: filled(ctx.company?.emailAddress),
  };
  return values[name as TemplatePlaceholder];
}

/** The template with every placeholder it can fill filled; the rest stay, and the send refuses them. */
export function fillTemplate(
  template: Pick<EmailTemplate, "subject" | "body">,
  ctx: TemplateContext,
): { subject: string; message: string } {
  const fill = (text: string) =>
    text.replace(
      new RegExp(PLACEHOLDER_PATTERN.source, "g"),
      (whole, name: string) => valueOf(name.trim(), ctx) ?? whole,
    );
  return { subject: fill(template.subject), message: fill(template.body) };
}
