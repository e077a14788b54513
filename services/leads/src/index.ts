export { startLeads } from "./service";
export { leadsConfigSchema } from "./config";
