export { startSettings, SETTINGS_MIGRATIONS } from "./service";
export { settingsConfigSchema } from "./config";
