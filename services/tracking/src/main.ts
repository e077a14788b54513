import { runServiceMain } from "@lease/platform";
import { startTracking } from "./service";

runServiceMain({ name: "tracking", start: () => startTracking() });
