// Secrets a local run needs are generated once into the git-ignored .env; in production they
// must be given, and a missing or weak one stops the start.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";

export const SECRETS = {
  JWT_SECRET: () => randomBytes(48).toString("base64url"),
  INTERNAL_TOKEN: () => randomBytes(32).toString("base64url"),
  SETTINGS_ENCRYPTION_KEY: () => randomBytes(32).toString("base64"),
};

const MIN_LENGTH = { JWT_SECRET: 32, INTERNAL_TOKEN: 32, SETTINGS_ENCRYPTION_KEY: 44 };

function readEnvFile(file) {
  const out = {};
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (m) out[m[1]] = m[2].replace(/^["']|["']$/g, "");
  }
  return out;
}

/** Returns the secrets to use; generates and stores missing ones unless NODE_ENV=production. */
export function ensureSecrets(env = process.env, file = ".env") {
  const fromFile = readEnvFile(file);
  const result = { ...fromFile };
  const production = env.NODE_ENV === "production";
  const problems = [];
  for (const [name, make] of Object.entries(SECRETS)) {
    const value = env[name] ?? fromFile[name];
    if (value) {
      if (value.length < MIN_LENGTH[name])
        problems.push(`${name} is too short (at least ${MIN_LENGTH[name]} characters of random data)`);
      result[name] = value;
    } else if (production) {
      problems.push(`${name} is required in production`);
    } else {
      result[name] = make();
      appendFileSync(file, `${name}=${result[name]}\n`, { mode: 0o600 });
      console.log(`[setup] generated ${name} into ${file}`);
    }
  }
  if (problems.length) throw new Error(problems.join("; "));
  return result;
}
