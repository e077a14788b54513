import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import type { Container, Endpoint, LabelSelector, Labels } from "./lib/k8s";
import { allowed, podLabels, podOf, selects, validateModel, workloads } from "./lib/k8s";
import type { Manifest } from "./lib/kustomize";
import { readManifests, renderKustomization, splitImage } from "./lib/kustomize";
import { megabytes } from "./lib/memory";
import type { ServiceName } from "./lib/required-env";
import { requiredEnv, SERVICE_NAMES, SERVICES } from "./lib/required-env";
import { migrateOnStart } from "@lease/platform";

const INFRA = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(INFRA);
const K8S = path.join(INFRA, "k8s");

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? yamlFiles(path.join(dir, e.name))
      : e.name.endsWith(".yaml")
        ? [path.join(dir, e.name)]
        : [],
  );
const secretTemplates = readManifests(path.join(K8S, "secrets/secrets.example.yaml"));
const find = (objects: Manifest[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const containers = (o: Manifest): Container[] => podOf(o).containers;
const nameOf = (o: Manifest) => o.metadata.labels?.["app.kubernetes.io/name"] as ServiceName;

describe("every manifest file", () => {
  // Patches are partial objects by design; they are validated inside the rendered overlays.
  const files = yamlFiles(K8S).filter(
    (f) => !f.endsWith("kustomization.yaml") && !f.includes(`${path.sep}patches${path.sep}`),
  );

  it.each(files.map((f) => [path.relative(INFRA, f), f]))(
    "%s parses and matches the Kubernetes schemas",
    (_name, file) => {
      const objects = readManifests(file);
      expect(objects.length).toBeGreaterThan(0);
      for (const o of objects) validateModel(o);
    },
  );

  it("secret templates carry no values", () => {
    for (const secret of secretTemplates) {
      for (const [key, value] of Object.entries({
        ...(secret.stringData as object),
        ...(secret.data as object),
      })) {
        expect(value, `${secret.metadata.name}.${key}`).toBe("");
      }
    }
  });
});

const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
const hasKubectl = kubectl.status === 0;
if (!hasKubectl) console.log("kubectl not installed: the comparison with `kubectl kustomize` is skipped");

it("deploy.sh is valid POSIX shell", () => {
  expect(spawnSync("sh", ["-n", path.join(K8S, "deploy.sh")], { encoding: "utf8" }).stderr).toBe("");
});

describe.each(["dev", "prod"])("overlay %s", (overlay) => {
  const dir = path.join(K8S, "overlays", overlay);
  const objects = renderKustomization(dir);
  const deployments = objects.filter((o) => o.kind === "Deployment");
  const pods = workloads(objects);

  it("renders every object valid against the Kubernetes schemas, each named once", () => {
    for (const o of objects) validateModel(o);
    const ids = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(ids.length).toBe(new Set(ids).size);
    expect(deployments.map(nameOf).sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it.skipIf(!hasKubectl)("renders the same objects as kubectl kustomize", () => {
    const out = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
    expect(out.stderr).toBe("");
    const key = (o: Manifest) => `${o.kind}/${o.metadata.name}`;
    const theirs = parseAllDocuments(out.stdout).map((d) => d.toJS() as Manifest);
    expect(Object.fromEntries(objects.map((o) => [key(o), o]))).toEqual(
      Object.fromEntries(theirs.map((o) => [key(o), o])),
    );
  });

  it("pins every image to a version, with every base placeholder overridden", () => {
    for (const c of pods.flatMap(containers)) {
      const [, tag] = splitImage(c.image);
      expect(
        c.image.includes("@sha256:") || (!!tag && tag !== "latest" && tag !== "set-by-overlay"),
        c.image,
      ).toBe(true);
    }
  });

  it("gives every container requests, limits and the restricted security context", () => {
    for (const o of pods) {
      const pod = podOf(o);
      expect(pod.securityContext?.runAsNonRoot, o.metadata.name).toBe(true);
      expect(pod.securityContext?.seccompProfile?.type, o.metadata.name).toBe("RuntimeDefault");
      for (const c of pod.containers) {
        const where = `${o.kind} ${o.metadata.name} ${c.name}`;
        for (const kind of ["requests", "limits"] as const)
          expect(Object.keys(c.resources?.[kind] ?? {}).sort(), where).toEqual(["cpu", "memory"]);
        expect(c.securityContext, where).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          runAsNonRoot: true,
        });
        expect(c.securityContext?.capabilities?.drop, where).toEqual(["ALL"]);
        const tmp = c.volumeMounts?.find((m) => m.mountPath === "/tmp");
        expect(
          pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir,
          `${where}: /tmp emptyDir`,
        ).toBeDefined();
      }
    }
  });

  it("probes readiness on /readyz of the metrics port and liveness on /healthz, and drains within the grace period", () => {
    const common = find(objects, "ConfigMap", "lease-common")?.data as Record<string, string>;
    const shutdownSeconds = Number(common.SHUTDOWN_TIMEOUT_MS) / 1000;
    for (const d of deployments) {
      const [c] = containers(d) as [Container];
      expect(c.readinessProbe?.httpGet?.path, d.metadata.name).toBe("/readyz");
      // The metrics port names each check; the service port answers only up or down.
      expect(c.readinessProbe?.httpGet?.port, d.metadata.name).toBe("metrics");
      expect(c.livenessProbe?.httpGet?.path, d.metadata.name).toBe("/healthz");
      expect((d.spec as { strategy: object }).strategy, d.metadata.name).toMatchObject({
        type: "RollingUpdate",
        rollingUpdate: { maxUnavailable: 0 },
      });
      const preStop = c.lifecycle?.preStop?.exec?.command;
      const pause = preStop?.[0] === "sleep" ? Number(preStop[1]) : 0;
      expect(podOf(d).terminationGracePeriodSeconds, d.metadata.name).toBeGreaterThan(
        shutdownSeconds + pause,
      );
    }
    const redis = containers(find(objects, "StatefulSet", "redis") as Manifest)[0];
    expect(redis?.readinessProbe && redis.livenessProbe).toBeTruthy();
  });

  it("covers every Deployment with a PodDisruptionBudget", () => {
    const budgets = objects.filter((o) => o.kind === "PodDisruptionBudget");
    for (const d of deployments) {
      const covering = budgets.filter((b) =>
        selects((b.spec as { selector: object }).selector, podLabels(d)),
      );
      expect(covering.length, d.metadata.name).toBe(1);
    }
  });

  it("routes every Service to pods that expose its target port", () => {
    for (const svc of objects.filter((o) => o.kind === "Service")) {
      const spec = svc.spec as { selector: Labels; ports: { targetPort: string | number }[] };
      const backends = objects.filter(
        (o) =>
          (o.kind === "Deployment" || o.kind === "StatefulSet") &&
          selects({ matchLabels: spec.selector }, podLabels(o)),
      );
      expect(backends.length, svc.metadata.name).toBe(1);
      const ports = containers(backends[0] as Manifest).flatMap((c) => c.ports ?? []);
      for (const { targetPort } of spec.ports)
        expect(
          ports.some((p) => p.name === targetPort || p.containerPort === targetPort),
          `${svc.metadata.name} ${targetPort}`,
        ).toBe(true);
    }
  });

  it("autoscales gateway and tracking, and leaves their replica counts to the autoscaler", () => {
    const hpas = objects.filter((o) => o.kind === "HorizontalPodAutoscaler");
    const targets = hpas.map(
      (h) => (h.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef,
    );
    expect(targets.map((t) => `${t.kind}/${t.name}`).sort()).toEqual([
      "Deployment/gateway",
      "Deployment/tracking",
    ]);
    for (const t of targets)
      expect(
        (find(objects, "Deployment", t.name)?.spec as { replicas?: number }).replicas,
        t.name,
      ).toBeUndefined();
  });

  it("provides every environment variable each service and its migration Job require", async () => {
    const missing: string[] = [];
    const keysOf = (o: Manifest | undefined) =>
      o ? Object.keys({ ...(o.data as object), ...(o.stringData as object) }) : undefined;
    for (const o of pods.filter((p) => nameOf(p) in SERVICES)) {
      const service = nameOf(o);
      const c = containers(o).find((x) => x.name === service) as Container;
      const provided = new Set((c.env ?? []).map((e) => e.name));
      for (const { configMapRef, secretRef } of c.envFrom ?? []) {
        const keys = configMapRef
          ? keysOf(find(objects, "ConfigMap", configMapRef.name))
          : keysOf(find(secretTemplates, "Secret", secretRef?.name ?? ""));
        if (!keys)
          missing.push(`${o.metadata.name}: envFrom ${configMapRef?.name ?? secretRef?.name} does not exist`);
        for (const k of keys ?? []) provided.add(k);
      }
      for (const { valueFrom } of c.env ?? []) {
        const ref = valueFrom?.secretKeyRef ?? valueFrom?.configMapKeyRef;
        const source = valueFrom?.secretKeyRef
          ? find(secretTemplates, "Secret", ref?.name ?? "")
          : find(objects, "ConfigMap", ref?.name ?? "");
        if (ref && !keysOf(source)?.includes(ref.key))
          missing.push(`${o.metadata.name}: ${ref.name}/${ref.key} does not exist`);
      }
      // A migration run reads only DATABASE_URL (libs/platform/src/main.ts), so its Job gets only that.
      const required =
        o.kind === "Job" ? ["DATABASE_URL", "RUN_MIGRATIONS_ONLY"] : await requiredEnv(ROOT, service);
      for (const name of required)
        if (!provided.has(name)) missing.push(`${o.kind} ${o.metadata.name}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it("runs each service's migrations in a Job with the Deployment's image and the schema owner's role", () => {
    for (const d of deployments) {
      const job = find(objects, "Job", `${d.metadata.name}-migrate`);
      expect(job, d.metadata.name).toBeDefined();
      const [c] = containers(job as Manifest) as [Container];
      expect(c.image).toBe(containers(d)[0]?.image);
      expect(c.env).toContainEqual({ name: "RUN_MIGRATIONS_ONLY", value: "1" });
      expect(c.env?.find((e) => e.name === "DATABASE_URL")?.valueFrom?.secretKeyRef).toEqual({
        name: `${d.metadata.name}-migration`,
        key: "DATABASE_URL",
      });
      // The owner's credentials reach only the Job: no service pod reads a migration or backup Secret.
      const [server] = containers(d) as [Container];
      const secretsRead = [
        ...(server.envFrom ?? []).map((e) => e.secretRef?.name),
        ...(server.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.name),
      ].filter((n) => n !== undefined);
      expect(secretsRead.filter((n) => n.endsWith("-migration") || n === "postgres-backup")).toEqual([]);
    }
  });

  it(`starts the services ${overlay === "prod" ? "without" : "with"} migrating at start (MIGRATE_ON_START)`, () => {
    const common = find(objects, "ConfigMap", "lease-common")?.data as Record<string, string>;
    // Parsed as the services parse it (libs/platform config): "false" must mean off, absent means on.
    expect(migrateOnStart(common)).toBe(overlay !== "prod");
    for (const d of deployments) {
      const [c] = containers(d) as [Container];
      expect(c.envFrom?.map((e) => e.configMapRef?.name)).toContain("lease-common");
      expect(c.env?.some((e) => e.name === "MIGRATE_ON_START")).toBe(false);
    }
  });

  it(`${overlay === "prod" ? "backs up" : "leaves backups to prod:"} the database with a nightly pg_dump CronJob`, () => {
    const cronJobs = objects.filter((o) => o.kind === "CronJob");
    if (overlay !== "prod") return expect(cronJobs).toEqual([]);
    expect(cronJobs.map((o) => o.metadata.name)).toEqual(["postgres-backup"]);
    const cron = cronJobs[0] as Manifest;
    const spec = cron.spec as { schedule: string; timeZone?: string; concurrencyPolicy: string };
    expect(spec.schedule.split(" ")).toHaveLength(5);
    expect(spec.timeZone).toBe("Europe/Amsterdam");
    expect(spec.concurrencyPolicy).toBe("Forbid");
    expect(podLabels(cron)["app.kubernetes.io/component"]).toBe("backup");
    const [c] = containers(cron) as [Container & { args?: string[] }];
    // pg_dump refuses a server newer than itself: the image's major version covers PostgreSQL 15+.
    expect(Number(/^postgres:(\d+)\./.exec(c.image)?.[1])).toBeGreaterThanOrEqual(15);
    expect(c.args?.join("\n")).toContain('pg_dump --dbname="$DATABASE_URL" --format=custom');
    expect(c.env?.find((e) => e.name === "DATABASE_URL")?.valueFrom?.secretKeyRef).toEqual({
      name: "postgres-backup",
      key: "DATABASE_URL",
    });
    expect(find(secretTemplates, "Secret", "postgres-backup")?.stringData).toHaveProperty("DATABASE_URL");
    const dir = c.env?.find((e) => e.name === "BACKUP_DIR")?.value;
    const mount = c.volumeMounts?.find((m) => m.mountPath === dir);
    const volume = podOf(cron).volumes?.find((v) => v.name === mount?.name) as
      { persistentVolumeClaim?: { claimName: string } } | undefined;
    expect(
      find(objects, "PersistentVolumeClaim", volume?.persistentVolumeClaim?.claimName ?? ""),
    ).toBeDefined();
  });

  it("keeps Redis a single primary with AOF and noeviction on a persistent volume", () => {
    const redis = find(objects, "StatefulSet", "redis") as Manifest;
    const spec = redis.spec as { replicas: number; volumeClaimTemplates: { metadata: { name: string } }[] };
    expect(spec.replicas).toBe(1);
    const args = (containers(redis)[0]?.args ?? []).join(" ");
    expect(args).toContain("--appendonly yes");
    expect(args).toContain("--maxmemory-policy noeviction");
    // A memory bound below the container's limit, with room for the fork that rewrites the AOF.
    const maxmemory = megabytes(/--maxmemory (\S+)/.exec(args)?.[1]);
    const limit = megabytes(containers(redis)[0]?.resources?.limits?.memory);
    expect(maxmemory).toBeGreaterThanOrEqual(512);
    expect(limit).toBeGreaterThanOrEqual(maxmemory * 1.25);
    const data = containers(redis)[0]?.volumeMounts?.find((m) => m.mountPath === "/data");
    expect(spec.volumeClaimTemplates.map((v) => v.metadata.name)).toContain(data?.name);
  });

  it("allows exactly the designed network paths", () => {
    const policies = objects.filter((o) => o.kind === "NetworkPolicy");
    expect(
      policies.some(
        (p) =>
          JSON.stringify(p.spec) === JSON.stringify({ podSelector: {}, policyTypes: ["Ingress", "Egress"] }),
      ),
    ).toBe(true);
    const namespace = { "kubernetes.io/metadata.name": "lease" };
    const pod = (name: string, component = "server"): Endpoint => ({
      labels: {
        "app.kubernetes.io/name": name,
        "app.kubernetes.io/component": component,
        "app.kubernetes.io/part-of": "lease",
      },
    });
    const redis = pod("redis", "datastore");
    const backup = pod("postgres-backup", "backup");
    const ingressController: Endpoint = {
      labels: { "app.kubernetes.io/name": "ingress-nginx" },
      namespaceLabels: { "kubernetes.io/metadata.name": "ingress-nginx" },
    };
    const dns: Endpoint = {
      labels: { "k8s-app": "kube-dns" },
      namespaceLabels: { "kubernetes.io/metadata.name": "kube-system" },
    };
    const postgresCidr = JSON.stringify(find(objects, "NetworkPolicy", "allow-postgres")?.spec).match(
      /"cidr":"([\d.]+)\//,
    )?.[1];
    const postgres: Endpoint = { ip: postgresCidr };
    const sendgrid: Endpoint = { ip: "149.72.10.10" };
    const prometheus: Endpoint = {
      labels: { "app.kubernetes.io/name": "prometheus" },
      namespaceLabels: { "kubernetes.io/metadata.name": "monitoring" },
    };
    const METRICS_PORTS = Object.fromEntries(
      SERVICE_NAMES.map((n) => [
        n,
        Number((find(objects, "ConfigMap", `${n}-config`)?.data as Record<string, string>).METRICS_PORT),
      ]),
    ) as Record<ServiceName, number>;
    const calls: Record<ServiceName, ServiceName[]> = {
      gateway: ["leads", "settings", "tracking", "mailer", "conversions"],
      leads: [],
      settings: [],
      tracking: [],
      mailer: ["settings", "leads", "tracking"],
      conversions: ["settings", "leads"],
    };

    const can = (from: Endpoint, to: Endpoint, port: number, portName?: string) =>
      allowed(policies, namespace, from, to, port, portName);
    for (const from of SERVICE_NAMES) {
      for (const to of SERVICE_NAMES.filter((t) => t !== from))
        expect(can(pod(from), pod(to), SERVICES[to], "http"), `${from} -> ${to}`).toBe(
          calls[from].includes(to),
        );
      expect(can(ingressController, pod(from), SERVICES[from], "http"), `ingress -> ${from}`).toBe(
        from === "gateway",
      );
      for (const component of ["server", "migration"]) {
        expect(can(pod(from, component), redis, 6379), `${from} ${component} -> redis`).toBe(
          component === "server",
        );
        expect(can(pod(from, component), postgres, 5432), `${from} ${component} -> postgres`).toBe(true);
        expect(can(pod(from, component), dns, 53), `${from} -> dns`).toBe(true);
      }
      // Public HTTPS: SendGrid for the mailer, the ad platforms for conversions.
      expect(can(pod(from), sendgrid, 443), `${from} -> SendGrid`).toBe(
        from === "mailer" || from === "conversions",
      );
      // Prometheus reaches each service's metrics port and nothing else; the ingress never reaches it.
      expect(can(prometheus, pod(from), METRICS_PORTS[from], "metrics"), `prometheus -> ${from}`).toBe(true);
      expect(can(prometheus, pod(from), SERVICES[from], "http"), `prometheus -> ${from} http`).toBe(false);
      expect(can(ingressController, pod(from), METRICS_PORTS[from], "metrics"), `ingress -> metrics`).toBe(
        false,
      );
      expect(can(redis, pod(from), SERVICES[from], "http"), `redis -> ${from}`).toBe(false);
      expect(can(backup, pod(from), SERVICES[from], "http"), `backup -> ${from}`).toBe(false);
    }
    // The backup CronJob (prod) reaches PostgreSQL and nothing else.
    expect(can(backup, postgres, 5432)).toBe(true);
    expect(can(backup, redis, 6379)).toBe(false);
    expect(can(backup, sendgrid, 443)).toBe(false);
    expect(can(ingressController, backup, 8080)).toBe(false);
    expect(can(pod("intruder", "debug"), redis, 6379)).toBe(false);
    expect(can(redis, postgres, 5432)).toBe(false);
    expect(can(pod("mailer"), sendgrid, 80)).toBe(false);
  });

  it("carries the alerting rules, the PodMonitor of the metrics ports and the Grafana dashboard", () => {
    const rule = find(objects, "PrometheusRule", "lease");
    const rulesFile = parse(readFileSync(path.join(INFRA, "observability/rules.yml"), "utf8")) as object;
    expect((rule?.spec as { groups: unknown }).groups).toEqual((rulesFile as { groups: unknown }).groups);
    const dashboard = find(objects, "ConfigMap", "lease-grafana-dashboard");
    expect(dashboard?.metadata.labels?.grafana_dashboard).toBe("1");
    expect((dashboard?.data as Record<string, string>)["lease-broker.json"]).toBe(
      readFileSync(path.join(INFRA, "observability/dashboard.json"), "utf8"),
    );
    const monitor = find(objects, "PodMonitor", "lease")?.spec as {
      selector: LabelSelector;
      podMetricsEndpoints: { port: string; relabelings: { targetLabel: string }[] }[];
    };
    expect(monitor.podMetricsEndpoints.map((e) => e.port)).toEqual(["metrics"]);
    expect(monitor.podMetricsEndpoints[0]?.relabelings.map((r) => r.targetLabel)).toContain("service");
    const common = find(objects, "ConfigMap", "lease-common")?.data as Record<string, string>;
    expect(common.METRICS_HOST).toBe("0.0.0.0");
    for (const d of deployments) {
      const service = nameOf(d);
      expect(selects(monitor.selector, podLabels(d)), service).toBe(true);
      const config = find(objects, "ConfigMap", `${service}-config`)?.data as Record<string, string>;
      const metricsPort = Number(config.METRICS_PORT);
      expect(metricsPort, service).not.toBe(SERVICES[service]);
      const [c] = containers(d) as [Container];
      expect(c.ports, service).toContainEqual({ name: "metrics", containerPort: metricsPort });
      const annotations = (d.spec as { template: { metadata: { annotations: Record<string, string> } } })
        .template.metadata.annotations;
      expect(annotations["prometheus.io/port"], service).toBe(String(metricsPort));
      const svc = find(objects, "Service", service)?.spec as {
        ports: { name: string; targetPort: string }[];
      };
      expect(svc.ports, service).toContainEqual(
        expect.objectContaining({ name: "metrics", targetPort: "metrics" }),
      );
    }
    expect(find(objects, "PodMonitor", "lease")?.metadata.namespace).toBe("lease");
  });

  it("carries /ws WebSockets to the gateway through the Ingress with long timeouts", () => {
    type Rules = { rules: { http: { paths: { path: string; backend: { service: { name: string } } }[] } }[] };
    const ingresses = objects.filter((o) => o.kind === "Ingress");
    const ws = ingresses.find((i) =>
      (i.spec as Rules).rules.some((r) => r.http.paths.some((p) => p.path === "/ws")),
    );
    expect(
      Number(ws?.metadata.annotations?.["nginx.ingress.kubernetes.io/proxy-read-timeout"]),
    ).toBeGreaterThanOrEqual(3600);
    const backends = ingresses.flatMap((i) =>
      (i.spec as Rules).rules.flatMap((r) => r.http.paths.map((p) => p.backend.service.name)),
    );
    expect(new Set(backends)).toEqual(new Set(["gateway"]));
  });
});
