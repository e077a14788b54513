import { InternalConversionSettings, InternalLeadConversion } from "@lease/contracts";
import { InternalCallError, createInternalClient } from "@lease/platform";

/** The platforms' switches, pixel ids and tokens (settings) and a lead's details (leads), by id. */
export interface ConversionSources {
  settings(requestId?: string): Promise<InternalConversionSettings>;
  /** undefined when the lead no longer exists (deleted or erased before the job ran). */
  lead(id: string, requestId?: string): Promise<InternalLeadConversion | undefined>;
}

/**
 * Over the internal routes; the settings are read for every job (leads are few, and a token saved
 * a moment ago is then used at once).
 */
export function httpSources(opts: {
  settingsUrl: string;
  leadsUrl: string;
  internalToken: string;
}): ConversionSources {
  const settings = createInternalClient(opts.settingsUrl, opts.internalToken);
  const leads = createInternalClient(opts.leadsUrl, opts.internalToken);
  return {
    settings: (requestId) =>
      settings("/internal/conversion-settings", InternalConversionSettings, { requestId }),
    async lead(id, requestId) {
      try {
        return await leads(`/internal/lease-requests/${id}/conversion`, InternalLeadConversion, {
          requestId,
        });
      } catch (err) {
        if (err instanceof InternalCallError && err.status === 404) return undefined;
        throw err;
      }
    },
  };
}
