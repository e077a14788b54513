import { runServiceMain } from "@lease/platform";
import { startTracking, TRACKING_MIGRATIONS } from "./service";

runServiceMain({ name: "tracking", migrationsFolder: TRACKING_MIGRATIONS, start: () => startTracking() });
