import type { MatchKey } from "@lease/contracts";

/** The match keys an event carried, as the marketer reads them ("e-mail, telefoon, klik-id, fbp, IP"). */
const MATCH_KEY_LABELS: Record<MatchKey, string> = {
  email: "e-mail",
  phone: "telefoon",
  click_id: "klik-id",
  fbp: "fbp",
  ip: "IP",
  external_id: "lead-id",
  country: "land",
};

export const matchKeysText = (keys: readonly MatchKey[]) => keys.map((k) => MATCH_KEY_LABELS[k]).join(", ");
