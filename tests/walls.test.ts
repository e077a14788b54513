import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The architecture's walls: no source or test file of one service imports another
// service, statically or with import(); tests that need more than one service live in tests/system/.
// eslint's no-restricted-imports (eslint.config.js) says the same while editing.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SERVICES = ["gateway", "leads", "settings", "tracking", "mailer", "conversions"];
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The service a specifier in `file` reaches, or null when it stays inside its own. */
function serviceReached(file: string, specifier: string): string | null {
  const pkg = /^@lease\/([a-z-]+)/.exec(specifier);
  if (pkg) return SERVICES.includes(pkg[1]!) ? pkg[1]! : null;
  if (!specifier.startsWith(".")) return null;
  const target = relative(root, resolve(dirname(file), specifier)).split(/[\\/]/);
  return target[0] === "services" && SERVICES.includes(target[1]!) ? target[1]! : null;
}

describe("the walls between services", () => {
  it("finds a crossing when there is one (the check can fail)", () => {
    const file = join(root, "services/mailer/src/jobs/x.ts");
    expect(serviceReached(file, "@lease/leads")).toBe("leads");
    expect(serviceReached(file, "../../../leads/src/service")).toBe("leads");
    expect(serviceReached(file, "../domain/delivery")).toBe("mailer");
    expect(serviceReached(file, "@lease/platform/testing")).toBeNull();
  });

  it("no file of a service imports another service", () => {
    const crossings: string[] = [];
    for (const service of SERVICES) {
      for (const file of sourceFiles(join(root, "services", service))) {
        for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
          const reached = serviceReached(file, specifier!);
          if (reached && reached !== service) crossings.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });

  it("the platform and contracts libraries import no service", () => {
    const crossings: string[] = [];
    for (const lib of ["platform", "contracts"]) {
      for (const file of sourceFiles(join(root, "libs", lib))) {
        for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
          if (serviceReached(file, specifier!))
            crossings.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });
});
