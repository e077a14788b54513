import { runServiceMain } from "@lease/platform";
import { CONVERSIONS_MIGRATIONS, startConversions } from "./service";

runServiceMain({
  name: "conversions",
  migrationsFolder: CONVERSIONS_MIGRATIONS,
  start: () => startConversions(process.env),
});
