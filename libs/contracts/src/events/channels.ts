import { z } from "zod";
import { IsoDateTime } from "../entities/common";

/** Redis pub/sub channel names; publishers and subscribers must agree, so they live here. */
export const CHANNELS = {
  settingsChanged: "settings-changed",
  visitorUpdate: "visitor-update",
  sessionsEnded: "sessions-ended",
} as const;
export type ChannelName = (typeof CHANNELS)[keyof typeof CHANNELS];

export const SettingsChangedEvent = z
  .object({ kind: z.enum(["company", "theme"]), at: IsoDateTime })
  .describe("Published by settings after a write; caches of that kind drop their copy");
export type SettingsChangedEvent = z.infer<typeof SettingsChangedEvent>;

export const VisitorChangedEvent = z
  .object({ at: IsoDateTime })
  .describe("Published by tracking when live visitors changed; WebSocket feeders recompute and push");
export type VisitorChangedEvent = z.infer<typeof VisitorChangedEvent>;

export const SessionsEndedEvent = z
  .object({ username: z.string().min(1).max(100), at: IsoDateTime })
  .describe(
    "Published when sessions of an admin ended (logout, password reset, removal); open admin sockets of that admin re-check at once",
  );
export type SessionsEndedEvent = z.infer<typeof SessionsEndedEvent>;
