import {
  CHANNELS,
  InternalMailSettings,
  SettingsChangedEvent,
  type AdminCompanySettings,
  type PublicCompanySettings,
  type ThemeSettings,
  type UpdateCompanySettingsBody,
  type UpdateThemeSettingsBody,
} from "@lease/contracts";
import { publishEvent, type Keyspace, type Logger, type Redis } from "@lease/platform";
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

  return {
    async publicCompany(): Promise<PublicCompanySettings> {
      return toPublicCompanySettings(await deps.company.get());
    },
    async adminCompany(): Promise<AdminCompanySettings> {
      return toAdminCompanySettings(await deps.company.get(), deps.box);
    },
    async updateCompany(body: UpdateCompanySettingsBody): Promise<AdminCompanySettings> {
      const row = await deps.company.update(companyPatch(body, deps.box));
      await announce("company");
      return toAdminCompanySettings(row, deps.box);
    },
    async theme(): Promise<ThemeSettings> {
      return toThemeSettings(await deps.theme.get());
    },
    async updateTheme(body: UpdateThemeSettingsBody): Promise<ThemeSettings> {
      const row = await deps.theme.update(body);
      await announce("theme");
      return toThemeSettings(row);
    },
    async resetTheme(): Promise<ThemeSettings> {
      const row = await deps.theme.update(themeDefaults());
      await announce("theme");
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
