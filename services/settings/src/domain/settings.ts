import {
  CHANNELS,
  InternalMailSettings,
  SettingsChangedEvent,
  type AdminCompanySettings,
  type PublicCompanySettings,
  type ThemeSettings,
  type ConversionSettings,
  type InternalConversionSettings,
  type UpdateCompanySettingsBody,
  type UpdateConversionSettingsBody,
  type AuditAction,
  type UpdateThemeSettingsBody,
  type ThemeValues,
} from "@lease/contracts";
import {
  auditEvent,
  publishEvent,
  type AuditedTransaction,
  type Keyspace,
  type Logger,
  type Redis,
} from "@lease/platform";
import type { CompanySettingsRepository } from "../repositories/company-settings";
import type { ThemeSettingsRepository } from "../repositories/theme-settings";

/** The settings as one transaction sees them, and the audit entries to store with its change. */
export type SettingsTransaction = AuditedTransaction<{
  company: CompanySettingsRepository;
  theme: ThemeSettingsRepository;
}>;
import {
  companyPatch,
  decryptedApiKey,
  isApiKeyUnreadable,
  toAdminCompanySettings,
  toPublicCompanySettings,
} from "./company";
import type { SecretBox } from "./secret-box";
import { themeDefaults, toThemeSettings } from "./theme";
import {
  CONVERSION_FIELDS,
  SECRET_COLUMNS,
  secretInClear,
  conversionPatch,
  refuseUnsendable,
  toConversionSettings,
  toInternalConversionSettings,
} from "./conversions";

export interface SettingsDeps {
  company: CompanySettingsRepository;
  theme: ThemeSettingsRepository;
  box: SecretBox;
  redis: Redis;
  keys: Keyspace;
  logger: Logger;
  /** Called on this replica right after a write, before the event goes out to the others. */
  changed?: (kind: SettingsChangedEvent["kind"]) => void;
  /** Runs a save in one transaction: the change and its audit entries are stored together. */
  transaction<T>(work: (tx: SettingsTransaction) => Promise<T>): Promise<T>;
}

/** The company row's fields by the panel form they belong to: one audit entry per section changed. */
const COMPANY_SECTIONS: ReadonlyArray<{ action: AuditAction; fields: readonly string[] }> = [
  {
    action: "settings.email_changed",
    fields: ["sendgridApiKey", "fromEmailAddress", "notifyCompanyEmail"],
  },
  {
    action: "settings.pixels_changed",
    fields: ["facebookPixelId", "snapchatPixelId", "tiktokPixelId", ...CONVERSION_FIELDS],
  },
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

  const auditTheme = (
    tx: SettingsTransaction,
    before: object,
    after: object,
    fields: string[],
    actor: string,
  ) => {
    const changed = changedFields(before, after, fields);
    return tx.audit(
      changed.length ? [auditEvent(actor, "settings.theme_changed", null, changed.join(", "))] : [],
    );
  };
  /** Writes the theme (a patch or the defaults) with its audit entry, then tells the replicas. */
  const saveTheme = async (values: Partial<ThemeValues>, actor: string): Promise<ThemeSettings> => {
    const row = await deps.transaction(async (tx) => {
      const before = await tx.theme.get();
      const after = await tx.theme.update(values);
      await auditTheme(tx, before, after, Object.keys(values), actor);
      return after;
    });
    await announce("theme");
    return toThemeSettings(row);
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
      const row = await deps.transaction(async (tx) => {
        const before = await tx.company.get();
        const patch = companyPatch(body, deps.box);
        const after = await tx.company.update(patch);
        const fields = changedFields(
          before,
          after,
          Object.keys(patch).filter((k) => k !== "sendgridApiKeyEncrypted"),
        );
        // The key is compared decrypted (each encryption differs); only its name is recorded.
        if (body.sendgridApiKey !== undefined && decryptedApiKey(before, deps.box) !== body.sendgridApiKey)
          fields.push("sendgridApiKey");
        const bySection = new Map<AuditAction, string[]>();
        for (const field of fields)
          bySection.set(companySection(field), [...(bySection.get(companySection(field)) ?? []), field]);
        await tx.audit(
          [...bySection].map(([action, names]) => auditEvent(actor, action, null, names.join(", "))),
        );
        return after;
      });
      await announce("company");
      return toAdminCompanySettings(row, deps.box);
    },
    async theme(): Promise<ThemeSettings> {
      return toThemeSettings(await deps.theme.get());
    },
    updateTheme: (body: UpdateThemeSettingsBody, actor: string) => saveTheme(body, actor),
    resetTheme: (actor: string) => saveTheme(themeDefaults(), actor),
    async conversionSettings(): Promise<ConversionSettings> {
      return toConversionSettings(await deps.company.get(), deps.box);
    },
    /**
     * Switches and tokens of the ad platforms' conversions, audited as a pixel settings change
     * (field names only; a token is compared decrypted, each encryption differs).
     */
    async updateConversionSettings(
      body: UpdateConversionSettingsBody,
      actor: string,
    ): Promise<ConversionSettings> {
      const row = await deps.transaction(async (tx) => {
        const before = await tx.company.get();
        const patch = conversionPatch(body, deps.box);
        const after = await tx.company.update(patch);
        refuseUnsendable(body, after);
        const fields = Object.keys(patch).filter((key) =>
          SECRET_COLUMNS.includes(key)
            ? secretInClear(before, key, deps.box) !== secretInClear(after, key, deps.box)
            : (before as Record<string, unknown>)[key] !== (after as Record<string, unknown>)[key],
        );
        await tx.audit(
          fields.length ? [auditEvent(actor, "settings.pixels_changed", null, fields.join(", "))] : [],
        );
        return after;
      });
      await announce("company");
      return toConversionSettings(row, deps.box);
    },
    /** For the conversions service only (internal route): each platform's pixel id and token in clear. */
    async internalConversionSettings(): Promise<InternalConversionSettings> {
      return toInternalConversionSettings(await deps.company.get(), deps.box);
    },
    /** For the mailer only (internal route): the key in clear, with the sender and company details. */
    async mailSettings(): Promise<InternalMailSettings> {
      const row = await deps.company.get();
      return InternalMailSettings.parse({
        sendgridApiKey: decryptedApiKey(row, deps.box),
        sendgridApiKeyUnreadable: isApiKeyUnreadable(row, deps.box),
        fromEmailAddress: row.fromEmailAddress,
        notifyCompanyEmail: row.notifyCompanyEmail,
        company: toPublicCompanySettings(row),
      });
    },
  };
}
export type SettingsDomain = ReturnType<typeof settingsDomain>;
