import { runServiceMain } from "@lease/platform";
import { SETTINGS_MIGRATIONS, startSettings } from "./service";

runServiceMain({ name: "settings", migrationsFolder: SETTINGS_MIGRATIONS, start: () => startSettings() });
