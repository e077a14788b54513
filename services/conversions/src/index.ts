export { startConversions } from "./service";
export { conversionsConfigSchema } from "./config";
