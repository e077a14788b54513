import { runServiceMain } from "@lease/platform";
import { LEADS_MIGRATIONS, startLeads } from "./service";

runServiceMain({ name: "leads", migrationsFolder: LEADS_MIGRATIONS, start: () => startLeads() });
