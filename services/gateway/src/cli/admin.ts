import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { createDatabase, createLogger, createPool, migrateOnStart, prepareSchema } from "@lease/platform";
import { adminsRepository } from "../repositories/admins";
import { hashPassword, newPasswordProblem } from "../domain/passwords";
import { GATEWAY_MIGRATIONS } from "../service";

// Admin accounts: `npm run admin -- create USER`, `reset-password USER` (password from a prompt
// or stdin), and `ensure-first` (used by npm start: creates the first admin when none exists).

const USAGE = "usage: npm run admin -- create USER | reset-password USER | ensure-first";
const USERNAME = /^[A-Za-z0-9._@-]{1,100}$/;

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let data = "";
    for await (const chunk of process.stdin) data += chunk;
    return data.replace(/\r?\n$/, "");
  }
  const muted = new Writable({ write: (_c, _e, cb) => cb() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  process.stdout.write("Password (min 12 characters): ");
  const answer = await new Promise<string>((resolve) => rl.question("", resolve));
  rl.close();
  process.stdout.write("\n");
  return answer;
}

async function main(argv: string[]): Promise<number> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const [command, username] = argv;
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "DATABASE_URL is not set: run this as npm run admin -- ..., which finds the database as npm start does",
    );
    return 1;
  }
  const pool = createPool(url, createLogger("admin-cli", "warn"), 2);
  try {
    await prepareSchema(pool, "gateway", GATEWAY_MIGRATIONS, migrateOnStart());
    const admins = adminsRepository(createDatabase(pool));
    if (command === "ensure-first") {
      if ((await admins.count()) > 0) return 0;
      const name = process.env.ADMIN_USERNAME || "admin";
      if (!USERNAME.test(name)) {
        console.error("ADMIN_USERNAME: use 1-100 letters, digits and . _ @ -");
        return 1;
      }
      const given = process.env.ADMIN_PASSWORD;
      const password = given || randomBytes(12).toString("base64url");
      const problem = newPasswordProblem(password);
      if (problem) {
        console.error(`ADMIN_PASSWORD: ${problem}`);
        return 1;
      }
      await admins.create(name, await hashPassword(password));
      console.log(
        given
          ? `Created admin "${name}" with the password from ADMIN_PASSWORD.`
          : `Created admin "${name}" with password: ${password}\n(shown once; change it with: npm run admin -- reset-password ${name})`,
      );
      return 0;
    }
    if ((command !== "create" && command !== "reset-password") || !username || !USERNAME.test(username)) {
      console.error(USAGE);
      return 2;
    }
    const password = await readPassword();
    const problem = newPasswordProblem(password);
    if (problem) {
      console.error(problem);
      return 1;
    }
    const hash = await hashPassword(password);
    if (command === "create") {
      if (await admins.findByUsername(username)) {
        console.error(`admin "${username}" already exists; use reset-password`);
        return 1;
      }
      await admins.create(username, hash);
      console.log(`Created admin "${username}".`);
    } else {
      if (!(await admins.setPassword(username, hash))) {
        console.error(`no admin "${username}"`);
        return 1;
      }
      console.log(`Password of "${username}" changed.`);
    }
    return 0;
  } finally {
    await pool.end();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`admin: ${err.message}`);
    process.exit(1);
  },
);
