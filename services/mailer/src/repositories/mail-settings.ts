import { CHANNELS, InternalMailSettings, SettingsChangedEvent } from "@lease/contracts";
import {
  createInternalClient,
  subscribeEvent,
  type Keyspace,
  type Logger,
  type Redis,
} from "@lease/platform";

/** Where the mailer gets the provider key, sender and company details. */
export interface MailSettingsSource {
  get(requestId?: string): Promise<InternalMailSettings>;
  /** Drop the cached copy (settings changed). */
  invalidate(): void;
}

/** Settings with a provider key and a sender: enough to send. */
export type ConfiguredMailSettings = InternalMailSettings & {
  sendgridApiKey: string;
  fromEmailAddress: string;
};

export const isConfigured = (s: InternalMailSettings): s is ConfiguredMailSettings =>
  Boolean(s.sendgridApiKey?.trim() && s.fromEmailAddress?.trim());

/**
 * Why these settings cannot send, as stored in last_error: the stored key cannot be decrypted
 * (entered again, it works), or a key or sender is missing; null when they can.
 */
export const unusableReason = (
  s: InternalMailSettings,
): "mail_key_unreadable" | "mail_not_configured" | null =>
  s.sendgridApiKeyUnreadable ? "mail_key_unreadable" : isConfigured(s) ? null : "mail_not_configured";

/** Asks the settings service over HTTP; caches the answer for `ttlMs`, one fetch at a time. */
export function httpMailSettingsSource(opts: {
  settingsUrl: string;
  internalToken: string;
  ttlMs: number;
}): MailSettingsSource {
  const call = createInternalClient(opts.settingsUrl, opts.internalToken);
  let cached: { value: InternalMailSettings; until: number } | undefined;
  let inflight: Promise<InternalMailSettings> | undefined;
  let generation = 0;
  return {
    async get(requestId) {
      if (cached && cached.until > Date.now()) return cached.value;
      if (!inflight) {
        const gen = generation;
        inflight = call("/internal/mail-settings", InternalMailSettings, { requestId })
          .then((value) => {
            // An invalidation during the fetch means this answer may be old: use it, do not keep it.
            if (gen === generation) cached = { value, until: Date.now() + opts.ttlMs };
            return value;
          })
          .finally(() => {
            inflight = undefined;
          });
      }
      return inflight;
    },
    invalidate() {
      generation++;
      cached = undefined;
    },
  };
}

/** Drops the cache whenever settings announce a company-settings change. */
export async function invalidateOnSettingsChange(
  source: MailSettingsSource,
  subscriber: Redis,
  keys: Keyspace,
  logger: Logger,
): Promise<void> {
  await subscribeEvent(
    subscriber,
    keys,
    CHANNELS.settingsChanged,
    SettingsChangedEvent,
    (event) => {
      if (event.kind === "company") source.invalidate();
    },
    logger,
  );
}
