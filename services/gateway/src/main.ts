import { runServiceMain } from "@lease/platform";
import { GATEWAY_MIGRATIONS, startGateway } from "./service";

runServiceMain({ name: "gateway", migrationsFolder: GATEWAY_MIGRATIONS, start: () => startGateway() });
