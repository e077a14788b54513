import { createHash } from "node:crypto";
import type { SettingsChangedEvent } from "@lease/contracts";

export type PublicKind = SettingsChangedEvent["kind"];

/** A public answer as it goes out: the JSON text and its ETag. */
export interface PublicSnapshot {
  json: string;
  etag: string;
}

/**
 * The public settings, serialised once and kept in memory: every page load revalidates them
 * (Cache-Control: no-cache), so a 304 must not cost a database read. A write on this replica drops
 * its kind at once; the settings-changed event drops it on the others; `ttlMs` bounds how long a
 * missed event (Redis away) can keep an old copy.
 */
export function publicSnapshots(ttlMs: number, now: () => number = Date.now) {
  const entries = new Map<PublicKind, { at: number; value: Promise<PublicSnapshot> }>();
  return {
    get(kind: PublicKind, load: () => Promise<unknown>): Promise<PublicSnapshot> {
      const entry = entries.get(kind);
      if (entry && now() - entry.at < ttlMs) return entry.value;
      const value = load().then((body) => {
        const json = JSON.stringify(body);
        return { json, etag: `"${createHash("sha1").update(json).digest("base64url")}"` };
      });
      const fresh = { at: now(), value };
      entries.set(kind, fresh);
      // A failed read is not kept: the next request tries again.
      value.catch(() => {
        if (entries.get(kind) === fresh) entries.delete(kind);
      });
      return value;
    },
    drop(kind: PublicKind): void {
      entries.delete(kind);
    },
  };
}
export type PublicSnapshots = ReturnType<typeof publicSnapshots>;
