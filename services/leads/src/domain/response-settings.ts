import { isDeepStrictEqual } from "node:util";
import { ResponseSettings, type ResponseSettingsResponse } from "@lease/contracts";
import type { ResponseSettingsRepository, StoredResponseSettings } from "../repositories/response-settings";
import { workingCalendar, type Calendar } from "./working-hours";

/** How long a replica keeps the settings it read: another replica's save applies within this. */
export const SETTINGS_CACHE_MS = 5_000;

export interface ActiveSettings {
  settings: ResponseSettings;
  calendar: Calendar;
}

function toResponse({ settings, updatedAt }: StoredResponseSettings): ResponseSettingsResponse {
  return {
    ...settings,
    basis: settings.quoteBasis === settings.contactBasis ? settings.quoteBasis : null,
    updatedAt: updatedAt?.toISOString() ?? null,
  };
}

/**
 * The response settings and the working calendar built from them, read once per SETTINGS_CACHE_MS
 * (every new lead needs them: its deadline is computed at arrival). `nudge` wakes the outbox relay
 * after a save queued its audit entry.
 */
export function responseSettingsDomain(
  repo: ResponseSettingsRepository,
  opts: { nudge: () => void; now?: () => number },
) {
  const now = opts.now ?? Date.now;
  let cached: { at: number; value: Promise<ActiveSettings> } | undefined;
  const build = (stored: StoredResponseSettings): ActiveSettings => ({
    settings: stored.settings,
    calendar: workingCalendar(stored.settings.workingHours, stored.settings.closedDays),
  });

  return {
    /** The settings in force (a failed read is not kept). */
    active(): Promise<ActiveSettings> {
      if (!cached || now() - cached.at > SETTINGS_CACHE_MS) {
        const value = repo.get().then(build);
        const entry = { at: now(), value };
        cached = entry;
        value.catch(() => {
          if (cached === entry) cached = undefined;
        });
      }
      return cached.value;
    },

    async get(): Promise<ResponseSettingsResponse> {
      return toResponse(await repo.get());
    },

    async update(settings: ResponseSettings, by: string): Promise<ResponseSettingsResponse> {
      const before = (await repo.get()).settings;
      const changed = (Object.keys(ResponseSettings.shape) as (keyof ResponseSettings)[]).filter(
        (key) => !isDeepStrictEqual(before[key], settings[key]),
      );
      const stored = await repo.save(settings, by, changed);
      cached = { at: now(), value: Promise.resolve(build(stored)) };
      opts.nudge();
      return toResponse(stored);
    },
  };
}
export type ResponseSettingsDomain = ReturnType<typeof responseSettingsDomain>;
