import { runServiceMain } from "@lease/platform";
import { MAILER_MIGRATIONS, startMailer } from "./service";

runServiceMain({
  name: "mailer",
  migrationsFolder: MAILER_MIGRATIONS,
  start: () => startMailer(process.env, { applyNice: true }),
});
