export { startMailer } from "./service";
export { mailerConfigSchema } from "./config";
export { privacyRepository as mailPrivacyRepository } from "./repositories/privacy";
