import {
  CHANNELS,
  InternalMailSettings,
  InternalTestEmailResult,
  type EmailSettingsTestResponse,
  SettingsChangedEvent,
  type AdminCompanySettings,
  type PublicCompanySettings,
  type ThemeSettings,
  type UpdateCompanySettingsBody,
  type UpdateThemeSettingsBody,
} from "@lease/contracts";
import {
  HttpError,
  InternalCallError,
  publishEvent,
  serviceUnavailable,
  type Keyspace,
  type Logger,
  type Redis,
  type createInternalClient,
} from "@lease/platform";
import type { CompanySettingsRepository } from "../repositories/company-settings";
import type { ThemeSettingsRepository } from "../repositories/theme-settings";
import { companyPatch, decryptedApiKey, toAdminCompanySettings, toPublicCompanySettings } from "./company";
import type { SecretBox } from "./secret-box";
import { themeDefaults, toThemeSettings } from "./theme";

export const TEST_EMAIL_FAILED_MESSAGE = "Kon geen test e-mail verzenden.";
export const MISSING_MAIL_SETTINGS_MESSAGE =
  "Ontbrekende gegevens - Vul eerst SendGrid API key en afzender e-mail in.";

export interface SettingsDeps {
  company: CompanySettingsRepository;
  theme: ThemeSettingsRepository;
  box: SecretBox;
  redis: Redis;
  keys: Keyspace;
  logger: Logger;
  mailer: ReturnType<typeof createInternalClient>;
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
    /** Asks the mailer to send a test e-mail to the configured sender address, and waits for the provider. */
    async sendTestEmail(requestId?: string): Promise<EmailSettingsTestResponse> {
      const row = await deps.company.get();
      const to = row.fromEmailAddress;
      if (!decryptedApiKey(row, deps.box) || !to)
        throw new HttpError(409, "conflict", MISSING_MAIL_SETTINGS_MESSAGE);
      let result: InternalTestEmailResult;
      try {
        result = await deps.mailer("/internal/test-email", InternalTestEmailResult, {
          method: "POST",
          body: { to },
          requestId,
        });
      } catch (err) {
        deps.logger.warn({ err: (err as Error).message }, "test e-mail not sent");
        if (err instanceof InternalCallError && err.status !== undefined && err.status < 500)
          throw new HttpError(502, "bad_gateway", "De maildienst weigerde de test e-mail.");
        if (err instanceof InternalCallError)
          throw serviceUnavailable("De maildienst is tijdelijk niet bereikbaar. Probeer het zo opnieuw.");
        throw new HttpError(502, "bad_gateway", "De maildienst gaf een onverwacht antwoord.");
      }
      if (result.status === "failed")
        throw new HttpError(
          502,
          "test_email_failed",
          `${TEST_EMAIL_FAILED_MESSAGE} ${result.reason ?? ""}`.trim(),
        );
      return { id: result.id, status: "sent", to: result.to };
    },
  };
}
export type SettingsDomain = ReturnType<typeof settingsDomain>;
