import {
  DEFAULT_GOOGLE_CONVERSION_NAMES,
  GOOGLE_ADS_IMPORT_WINDOW_DAYS,
  googleAdsFeedPath,
  type GoogleAdsFeedUrl,
  type GoogleAdsSettings,
  type GoogleConversionNames,
  type UpdateGoogleAdsSettingsBody,
} from "@lease/contracts";
import type { GoogleAdsFeedRow, GoogleAdsRepository } from "../repositories/google-ads";
import { feedSecretMatches, googleAdsConversionsCsv, newFeedSecret } from "./google-ads-file";

const DAY_MS = 24 * 60 * 60 * 1000;

function namesOf(row: GoogleAdsFeedRow): GoogleConversionNames {
  return {
    lead: row.leadConversionName ?? DEFAULT_GOOGLE_CONVERSION_NAMES.lead,
    offerte: row.offerteConversionName ?? DEFAULT_GOOGLE_CONVERSION_NAMES.offerte,
    getekend: row.getekendConversionName ?? DEFAULT_GOOGLE_CONVERSION_NAMES.getekend,
  };
}

function toSettings(row: GoogleAdsFeedRow): GoogleAdsSettings {
  return {
    conversionNames: namesOf(row),
    feedUrlSet: row.secretHash !== null,
    feedRotatedAt: row.secretRotatedAt?.toISOString() ?? null,
    feedFetchedAt: row.secretFetchedAt?.toISOString() ?? null,
    importWindowDays: GOOGLE_ADS_IMPORT_WINDOW_DAYS,
  };
}

/**
 * The Google Ads offline conversion file: built from leads' own rows on each request, for the
 * leads whose click lies within Google's import window, so it never grows past 90 days of leads.
 * `nudge` wakes the outbox relay after a change queued its audit entry.
 */
export function googleAdsDomain(repo: GoogleAdsRepository, opts: { nudge: () => void; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const conversions = () => repo.conversions(new Date(now() - GOOGLE_ADS_IMPORT_WINDOW_DAYS * DAY_MS));
  return {
    async settings(): Promise<GoogleAdsSettings> {
      return toSettings(await repo.get());
    },

    async updateSettings(body: UpdateGoogleAdsSettingsBody, actor: string): Promise<GoogleAdsSettings> {
      const row = await repo.saveNames(body.conversionNames ?? {}, actor);
      opts.nudge();
      return toSettings(row);
    },

    /** A new secret URL, answered this once; the one before answers 404 from this moment. */
    async rotateFeed(actor: string): Promise<GoogleAdsFeedUrl> {
      const { secret, hash } = newFeedSecret();
      const row = await repo.rotateSecret(hash, actor);
      opts.nudge();
      return { path: googleAdsFeedPath(secret), rotatedAt: row.secretRotatedAt!.toISOString() };
    },

    /** The file, for the panel's download: click ids leave the product, so who took it is audited. */
    async file(actor: string): Promise<string> {
      const [row, rows] = await Promise.all([repo.get(), conversions()]);
      await repo.recordDownload(actor, rows.length);
      opts.nudge();
      return googleAdsConversionsCsv(rows, namesOf(row));
    },

    /** The file for the secret URL; undefined when the secret is not the current one. */
    async feed(secret: string): Promise<string | undefined> {
      const row = await repo.get();
      if (!feedSecretMatches(secret, row.secretHash)) return undefined;
      const csv = googleAdsConversionsCsv(await conversions(), namesOf(row));
      await repo.markFetched(row.secretHash!);
      return csv;
    },
  };
}
export type GoogleAdsDomain = ReturnType<typeof googleAdsDomain>;
