export { startTracking, type RunningTracking } from "./service";
export { trackingConfigSchema } from "./config";
export { anonymousVisitorId } from "./domain/anonymous-id";
export { daySaltKey } from "./repositories/day-salt";
