import {
  CHANNELS,
  InternalMailSettings,
  SettingsChangedEvent,
  type AdminCompanySettings,
  type PublicCompanySettings,
  type ThemeSettings,
  type UpdateCompanySettingsBody,
  type AuditAction,
  type AuditRecordJobData,
  type UpdateThemeSettingsBody,
} from "@lease/contracts";
import {
  auditEvent,
  publishEvent,
  sendAuditEvents,
  type Keyspace,
  type Logger,
  type QueueClient,
  type Redis,
} from "@lease/platform";
import type { CompanySettingsRepository } from "../repositories/company-settings";
import type { ThemeSettingsRepository } from "../repositories/theme-settings";
import { companyPatch, decryptedApiKey, toAdminCompanySettings, toPublicCompanySettings } from "./company";
import type { SecretBox } from "./secret-box";
import { themeDefaults, toThemeSettings } from "./theme";

export interface SettingsDeps {
  company: CompanySettingsRepository;
  theme: ThemeSettingsRepository;
  box: SecretBox;
  redis: Redis;
  keys: Keyspace;
  logger: Logger;
  /** Called on this replica right after a write, before the event goes out to the others. */
  changed?: (kind: SettingsChangedEvent["kind"]) => void;
  /** Where the audit entries of saves go (the gateway's audit log); none: not recorded. */
  queue?: QueueClient;
}

/** The company row's fields by the panel form they belong to: one audit entry per section changed. */
const COMPANY_SECTIONS: ReadonlyArray<{ action: AuditAction; fields: readonly string[] }> = [
  {
    action: "settings.email_changed",
    fields: ["sendgridApiKey", "fromEmailAddress", "notifyCompanyEmail"],
  },
  { action: "settings.pixels_changed", fields: ["facebookPixelId", "snapchatPixelId", "tiktokPixelId"] },
];
const companySection = (field: string): AuditAction =>
  COMPANY_SECTIONS.find((s) => s.fields.includes(field))?.action ?? "settings.company_changed";

/** The fields whose stored value differs between two rows (names only; values never leave here). */
function changedFields(before: object, after: object, fields: Iterable<string>): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return [...fields].filter((key) => (a[key] ?? null) !== (b[key] ?? null));
}

/** The use cases of the settings service; routes only parse and map to HTTP. */
export function settingsDomain(deps: SettingsDeps) {
  const announce = (kind: SettingsChangedEvent["kind"]) => {
    deps.changed?.(kind);
    return publishEvent(
      deps.redis,
      deps.keys,
      CHANNELS.settingsChanged,
      SettingsChangedEvent,
      { kind, at: new Date().toISOString() },
      deps.logger,
    );
  };

  const audit = (events: AuditRecordJobData[]) =>
    deps.queue ? sendAuditEvents(deps.queue, events, deps.logger) : Promise.resolve();
  const auditTheme = (before: object, after: object, fields: string[], actor: string) => {
    const changed = changedFields(before, after, fields);
    return audit(
      changed.length ? [auditEvent(actor, "settings.theme_changed", null, changed.join(", "))] : [],
    );
  };

  return {
    async publicCompany(): Promise<PublicCompanySettings> {
      return toPublicCompanySettings(await deps.company.get());
    },
    async adminCompany(): Promise<AdminCompanySettings> {
      return toAdminCompanySettings(await deps.company.get(), deps.box);
    },
    /** `actor`: the admin's username; each section with a changed field gets an audit entry. */
    async updateCompany(body: UpdateCompanySettingsBody, actor: string): Promise<AdminCompanySettings> {
      const before = await deps.company.get();
      const patch = companyPatch(body, deps.box);
      const row = await deps.company.update(patch);
      await announce("company");
      const fields = changedFields(
        before,
        row,
        Object.keys(patch).filter((k) => k !== "sendgridApiKeyEncrypted"),
      );
      // The key is compared decrypted (each encryption differs); only its name is recorded.
      if (body.sendgridApiKey !== undefined && decryptedApiKey(before, deps.box) !== body.sendgridApiKey)
        fields.push("sendgridApiKey");
      const bySection = new Map<AuditAction, string[]>();
      for (const field of fields)
        bySection.set(companySection(field), [...(bySection.get(companySection(field)) ?? []), field]);
      await audit([...bySection].map(([action, names]) => auditEvent(actor, action, null, names.join(", "))));
      return toAdminCompanySettings(row, deps.box);
    },
    async theme(): Promise<ThemeSettings> {
      return toThemeSettings(await deps.theme.get());
    },
    async updateTheme(body: UpdateThemeSettingsBody, actor: string): Promise<ThemeSettings> {
      const before = await deps.theme.get();
      const row = await deps.theme.update(body);
      await announce("theme");
      await auditTheme(before, row, Object.keys(body), actor);
      return toThemeSettings(row);
    },
    async resetTheme(actor: string): Promise<ThemeSettings> {
      const before = await deps.theme.get();
      const defaults = themeDefaults();
      const row = await deps.theme.update(defaults);
      await announce("theme");
      await auditTheme(before, row, Object.keys(defaults), actor);
      return toThemeSettings(row);
    },
    /** For the mailer only (internal route): the key in clear, with the sender and company details. */
    async mailSettings(): Promise<InternalMailSettings> {
      const row = await deps.company.get();
      return InternalMailSettings.parse({
        sendgridApiKey: decryptedApiKey(row, deps.box),
        fromEmailAddress: row.fromEmailAddress,
        notifyCompanyEmail: row.notifyCompanyEmail,
        company: toPublicCompanySettings(row),
      });
    },
  };
}
export type SettingsDomain = ReturnType<typeof settingsDomain>;
