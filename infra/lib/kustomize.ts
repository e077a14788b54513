import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

// A small kustomize renderer for the features infra/k8s uses (the kustomize binary cannot be
// installed everywhere the tests run): resources (files and directories), namespace, images
// (newName/newTag/digest), strategic-merge patches and ConfigMaps generated from files (without the
// name hash). Any other kustomization field throws, so a
// manifest change that needs more is noticed here instead of silently rendering something else.

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

interface ImageOverride {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  images?: ImageOverride[];
  patches?: { path: string }[];
  configMapGenerator?: ConfigMapGenerator[];
}

interface ConfigMapGenerator {
  name: string;
  /** "key=path" or "path" (the key is then the file name). */
  files?: string[];
  options?: { disableNameSuffixHash?: boolean; labels?: Record<string, string> };
}

const SUPPORTED_FIELDS = new Set([
  "apiVersion",
  "kind",
  "namespace",
  "resources",
  "images",
  "patches",
  "configMapGenerator",
]);
const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "PersistentVolume",
  "StorageClass",
  "IngressClass",
  "PriorityClass",
  "CustomResourceDefinition",
]);

/** Strategic-merge keys of the lists we patch; every other list is replaced, as kustomize does. */
const LIST_MERGE_KEYS: Record<string, string> = {
  containers: "name",
  initContainers: "name",
  env: "name",
  volumes: "name",
  volumeMounts: "mountPath",
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every document of a YAML file; a syntax error or a document without kind/name throws. */
export function readManifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(file, "utf8")).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join("; ")}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return [];
    if (
      !isObject(value) ||
      typeof value.kind !== "string" ||
      !isObject(value.metadata) ||
      typeof value.metadata.name !== "string"
    ) {
      throw new Error(`${file}: every document needs apiVersion, kind and metadata.name`);
    }
    return [value as Manifest];
  });
}

export function renderKustomization(dir: string): Manifest[] {
  const file = path.join(dir, "kustomization.yaml");
  if (!existsSync(file)) throw new Error(`${dir}: no kustomization.yaml`);
  const parsed = parseAllDocuments(readFileSync(file, "utf8"))[0]?.toJS() as Kustomization;
  const unsupported = Object.keys(parsed).filter((k) => !SUPPORTED_FIELDS.has(k));
  if (unsupported.length > 0)
    throw new Error(`${file}: the test renderer does not support ${unsupported.join(", ")}`);

  let objects = (parsed.resources ?? []).flatMap((ref) => {
    const target = path.resolve(dir, ref);
    return statSync(target).isDirectory() ? renderKustomization(target) : readManifests(target);
  });
  for (const generator of parsed.configMapGenerator ?? []) objects.push(generateConfigMap(dir, generator));
  for (const patch of parsed.patches ?? []) {
    for (const doc of readManifests(path.resolve(dir, patch.path))) {
      const index = objects.findIndex((o) => o.kind === doc.kind && o.metadata.name === doc.metadata.name);
      if (index < 0)
        throw new Error(`${patch.path}: patch targets no ${doc.kind} named ${doc.metadata.name}`);
      objects[index] = strategicMerge(objects[index], doc) as Manifest;
    }
  }
  if (parsed.namespace) {
    const namespace = parsed.namespace;
    objects = objects.map((o) =>
      CLUSTER_SCOPED.has(o.kind) ? o : { ...o, metadata: { ...o.metadata, namespace } },
    );
  }
  for (const image of parsed.images ?? []) objects = objects.map((o) => overrideImage(o, image));
  return objects;
}

function generateConfigMap(dir: string, generator: ConfigMapGenerator): Manifest {
  const unsupported = Object.keys(generator).filter((k) => !["name", "files", "options"].includes(k));
  if (unsupported.length > 0 || !generator.options?.disableNameSuffixHash)
    throw new Error(
      `configMapGenerator ${generator.name}: the test renderer supports only files, labels and disableNameSuffixHash: true`,
    );
  const data: Record<string, string> = {};
  for (const entry of generator.files ?? []) {
    const [key, file] = entry.includes("=") ? entry.split("=", 2) : [path.basename(entry), entry];
    data[key as string] = readFileSync(path.resolve(dir, file as string), "utf8");
  }
  const labels = generator.options.labels;
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: generator.name, ...(labels ? { labels } : {}) },
    data,
  };
}

export function strategicMerge(base: unknown, patch: unknown, field = ""): unknown {
  if (Array.isArray(base) && Array.isArray(patch)) {
    const key = LIST_MERGE_KEYS[field];
    if (!key) return patch;
    const merged = [...base];
    for (const item of patch) {
      const at = merged.findIndex((m) => isObject(m) && isObject(item) && m[key] === item[key]);
      if (at < 0) merged.push(item);
      else merged[at] = strategicMerge(merged[at], item);
    }
    return merged;
  }
  if (!isObject(base) || !isObject(patch)) return patch;
  if ("$patch" in patch) throw new Error("the test renderer does not support $patch directives");
  const merged: Json = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete merged[k];
    else merged[k] = k in base ? strategicMerge(base[k], v, k) : v;
  }
  return merged;
}

/** The pod template of a Deployment, StatefulSet, Job or CronJob, or undefined for other kinds. */
export function podTemplateOf(o: Manifest): Json | undefined {
  const spec = o.spec as Json | undefined;
  return (o.kind === "CronJob" ? ((spec?.jobTemplate as Json)?.spec as Json)?.template : spec?.template) as
    Json | undefined;
}

/** The pod spec of a Deployment, StatefulSet, Job or CronJob, or undefined for other kinds. */
export function podSpecOf(o: Manifest): Json | undefined {
  return podTemplateOf(o)?.spec as Json | undefined;
}

function overrideImage(o: Manifest, override: ImageOverride): Manifest {
  const pod = podSpecOf(o);
  if (!pod) return o;
  const copy = structuredClone(o);
  const copyPod = podSpecOf(copy) as Json;
  for (const list of ["containers", "initContainers"]) {
    for (const c of (copyPod[list] as Json[] | undefined) ?? []) {
      const [name, tag] = splitImage(String(c.image));
      if (name !== override.name) continue;
      const newName = override.newName ?? name;
      c.image = override.digest
        ? `${newName}@${override.digest}`
        : `${newName}${override.newTag ? `:${override.newTag}` : tag ? `:${tag}` : ""}`;
    }
  }
  return copy;
}

/** "registry:5000/a/b:1.2" -> ["registry:5000/a/b", "1.2"]; digests stay with the name. */
export function splitImage(image: string): [string, string | undefined] {
  if (image.includes("@")) return [image.slice(0, image.indexOf("@")), undefined];
  const slash = image.lastIndexOf("/");
  const colon = image.lastIndexOf(":");
  return colon > slash ? [image.slice(0, colon), image.slice(colon + 1)] : [image, undefined];
}
