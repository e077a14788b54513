export { startLeads } from "./service";
export { leadsConfigSchema } from "./config";
export { privacyRepository } from "./repositories/privacy";
