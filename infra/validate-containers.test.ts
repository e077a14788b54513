import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Stage } from "./lib/dockerfile";
import { execForm, isPinnedImage, parseDockerfile } from "./lib/dockerfile";
import { megabytes } from "./lib/memory";
import { requiredEnv, SERVICE_NAMES, SERVICES } from "./lib/required-env";

const INFRA = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(INFRA);

interface ComposeService {
  image: string;
  build?: { context: string; args?: Record<string, string> };
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
  mem_limit?: string;
}
const composeFile = path.join(INFRA, "docker-compose.yml");
const composeText = readFileSync(composeFile, "utf8");
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };
const envExample = Object.fromEntries(
  readFileSync(path.join(INFRA, ".env.example"), "utf8")
    .split("\n")
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
);

describe("docker-compose.yml", () => {
  it("runs PostgreSQL on a volume, Redis and the five services, each with a health check", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ["postgres", "redis", "prometheus", ...SERVICE_NAMES].sort(),
    );
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.healthcheck?.test.length, name).toBeGreaterThan(0);
      expect(isPinnedImage(service.image) || service.image.startsWith("lease/"), service.image).toBe(true);
    }
    expect(compose.services.postgres?.volumes?.some((v) => v.endsWith(":/var/lib/postgresql/data"))).toBe(
      true,
    );
  });

  it("asks each service's readiness on its metrics port, never on the port that may be public", () => {
    for (const name of SERVICE_NAMES) {
      const service = compose.services[name]!;
      const probe = service.healthcheck?.test.join(" ") ?? "";
      expect(probe, name).toContain(`127.0.0.1:${service.environment?.METRICS_PORT}/readyz`);
    }
  });

  it("starts each service after its dependencies are healthy, and publishes only the gateway", () => {
    for (const name of SERVICE_NAMES) {
      const dependsOn = compose.services[name]?.depends_on ?? {};
      expect(Object.keys(dependsOn), name).toEqual(expect.arrayContaining(["postgres", "redis"]));
      for (const [dep, { condition }] of Object.entries(dependsOn))
        expect(condition, `${name} -> ${dep}`).toBe("service_healthy");
      expect(compose.services[name]?.ports ?? [], name).toEqual(name === "gateway" ? ["8080:8080"] : []);
    }
  });

  it("keeps Redis data in an append-only file and never evicts keys", () => {
    const command = (compose.services.redis?.command ?? []).join(" ");
    expect(command).toContain("--appendonly yes");
    expect(command).toContain("--maxmemory-policy noeviction");
    expect(compose.services.redis?.volumes?.some((v) => v.endsWith(":/data"))).toBe(true);
  });

  it("bounds Redis's memory below its container's limit, with room for the AOF rewrite", () => {
    const command = (compose.services.redis?.command ?? []).join(" ");
    const maxmemory = megabytes(/--maxmemory (\S+)/.exec(command)?.[1]);
    const limit = megabytes(compose.services.redis?.mem_limit);
    expect(maxmemory).toBeGreaterThanOrEqual(256);
    expect(limit).toBeGreaterThanOrEqual(maxmemory * 1.25);
  });

  it("offers a Prometheus (profile observability) that scrapes every metrics port with the tested rules", () => {
    const prometheus = compose.services.prometheus!;
    expect(prometheus.profiles).toEqual(["observability"]);
    expect(prometheus.ports).toEqual(["127.0.0.1:9090:9090"]);
    expect(prometheus.volumes).toContain("./observability/rules.yml:/etc/prometheus/rules.yml:ro");
    const config = parse(readFileSync(path.join(INFRA, "observability/prometheus.yml"), "utf8")) as {
      rule_files: string[];
      scrape_configs: { static_configs: { targets: string[]; labels: { service: string } }[] }[];
    };
    expect(config.rule_files).toEqual(["/etc/prometheus/rules.yml"]);
    const targets = config.scrape_configs.flatMap((c) => c.static_configs);
    expect(targets.map((t) => t.labels.service).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const {
      targets: [target],
      labels,
    } of targets) {
      const env = compose.services[labels.service]?.environment ?? {};
      expect(target, labels.service).toBe(`${labels.service}:${env.METRICS_PORT}`);
      expect(env.METRICS_HOST, labels.service).toBe("0.0.0.0");
      expect(env.METRICS_PORT, labels.service).not.toBe(env.PORT);
    }
  });

  it("gives each service every environment variable it requires", async () => {
    for (const name of SERVICE_NAMES) {
      const environment = compose.services[name]?.environment ?? {};
      const missing = (await requiredEnv(ROOT, name)).filter((v) => !(v in environment));
      expect(missing, name).toEqual([]);
      expect(environment.PORT, name).toBe(String(SERVICES[name]));
    }
  });

  it("documents every variable it reads in .env.example, without real secret values", () => {
    const used = new Set([...composeText.matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1] as string));
    expect([...used].filter((v) => !(v in envExample))).toEqual([]);
    for (const [key, value] of Object.entries(envExample))
      if (/PASSWORD|SECRET|TOKEN|KEY/.test(key)) expect(value, key).toBe("");
  });

  const hasCompose = spawnSync("sh", ["-c", "command -v docker-compose"]).status === 0;
  if (!hasCompose) console.log("docker-compose not installed: `docker-compose config -q` is skipped");
  it.skipIf(!hasCompose)("passes docker-compose config", () => {
    // Placeholder values only to satisfy the ${VAR:?} guards; nothing is started.
    const env = {
      ...process.env,
      ...Object.fromEntries(Object.keys(envExample).map((k) => [k, `validation-only-${k.toLowerCase()}`])),
    };
    const result = spawnSync("docker-compose", ["-f", composeFile, "config", "-q"], {
      encoding: "utf8",
      env,
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe("Dockerfile (one for the five images, --build-arg SERVICE=<name>)", () => {
  const stages = parseDockerfile(path.join(ROOT, "Dockerfile"));
  const final = stages.at(-1) as Stage;
  const stage = (alias: string) => stages.find((s) => s.alias === alias) as Stage;
  const all = (keyword: string, from: Stage = final) =>
    from.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

  it("is the only Dockerfile, and Compose builds every service from it with its SERVICE", () => {
    for (const name of SERVICE_NAMES) {
      expect(existsSync(path.join(ROOT, "services", name, "Dockerfile")), name).toBe(false);
      const build = compose.services[name]?.build;
      expect(build, name).toEqual({ context: "..", args: { SERVICE: name } });
      expect(compose.services[name]?.image, name).toMatch(new RegExp(`^lease/${name}:`));
    }
  });

  it("builds from pinned base images only, every stage on the same Node image", () => {
    const aliases = new Set(stages.map((s) => s.alias));
    for (const { from } of stages) expect(aliases.has(from) || isPinnedImage(from), from).toBe(true);
    const bases = new Set(stages.map((s) => s.from).filter((from) => !aliases.has(from)));
    expect([...bases]).toEqual([final.from]);
  });

  it("takes SERVICE only where it matters, so the build stages are shared by all five images", () => {
    for (const alias of ["manifests", "build"]) expect(all("ARG", stage(alias)), alias).toEqual([]);
    for (const alias of ["bundle", "deps", "runtime"])
      expect(all("ARG", stage(alias)), alias).toEqual(["SERVICE"]);
    expect(all("RUN", stage("build")).join(" ")).toContain("npm run build");
  });

  it("installs only production dependencies of this workspace in the runtime image", () => {
    expect(all("RUN", stage("deps")).join(" ")).toContain("npm ci --omit=dev --workspace=@lease/${SERVICE}");
    expect(all("COPY")).toEqual(["--from=deps /app ./", "--from=bundle /out ./"]);
    expect(all("RUN"), "no installs or builds in the runtime stage").toEqual([]);
    const bundle = all("RUN", stage("bundle")).join(" ");
    expect(bundle).toContain('cp -r "services/${SERVICE}/dist"');
    expect(bundle).toContain('"services/${SERVICE}/migrations/."');
    expect(bundle).toContain(
      'if [ "${SERVICE}" = gateway ]; then mkdir -p /out/web && cp -r web/dist /out/web/dist',
    );
    expect(bundle).toContain('ln -s "services/${SERVICE}/dist/main.js" /out/service.js');
  });

  it("runs as a non-root user, checks /healthz on the service's port and lets SIGTERM reach node", () => {
    const user = all("USER").at(-1) ?? "root";
    expect(["root", "0"]).not.toContain(user.split(":")[0]);
    const healthcheck = all("HEALTHCHECK").at(-1) ?? "";
    const probe = execForm(healthcheck.slice(healthcheck.indexOf("CMD") + 3).trim());
    expect(probe?.[0]).toBe("node");
    expect(probe?.join(" ")).toContain("/healthz");
    // The probe's fallback ports are the services' own (PORT unset in a plain `docker run`).
    const ports = /\{ (gateway: \d+(?:, \w+: \d+)*) \}/.exec(probe?.join(" ") ?? "")?.[1] ?? "";
    expect(
      Object.fromEntries(ports.split(", ").map((p) => [p.split(": ")[0], Number(p.split(": ")[1])])),
    ).toEqual(SERVICES);
    expect(all("ENV").join(" ")).toContain("SERVICE=${SERVICE}");
    for (const name of SERVICE_NAMES) {
      const config = readFileSync(path.join(ROOT, "services", name, "src/config.ts"), "utf8");
      expect(/\bPORT: z\.coerce\.number\(\)[^\n]*\.default\((\d+)\)/.exec(config)?.[1], name).toBe(
        String(SERVICES[name]),
      );
    }
    expect(execForm(all("CMD").at(-1) ?? "")).toEqual(["node", "service.js"]);
    for (const entrypoint of all("ENTRYPOINT"))
      expect(execForm(entrypoint), "exec-form ENTRYPOINT").toBeDefined();
  });
});
