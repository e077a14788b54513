export { startTracking, type RunningTracking } from "./service";
export { trackingConfigSchema } from "./config";
