export { startMailer } from "./service";
export { mailerConfigSchema } from "./config";
