import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { CronJob, Job } from "kubernetes-models/batch/v1";
import { Ingress, NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from "kubernetes-models/v1";
import { PodMonitor, PrometheusRule } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
import type { Manifest } from "./kustomize";
import { podSpecOf, podTemplateOf } from "./kustomize";

// Schema validation through kubernetes-models, and the selector and NetworkPolicy semantics the
// checks in validate.test.ts reason with.

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/Namespace": Namespace,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "batch/v1/Job": Job,
  "batch/v1/CronJob": CronJob,
  "v1/PersistentVolumeClaim": PersistentVolumeClaim,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/Ingress": Ingress,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "monitoring.coreos.com/v1/PrometheusRule": PrometheusRule,
  "monitoring.coreos.com/v1/PodMonitor": PodMonitor,
};

/** Throws with the object's kind and name when its schema is violated or its kind is unknown here. */
export function validateModel(o: Manifest): void {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (!Model)
    throw new Error(`${o.kind} ${o.metadata.name}: no model for ${o.apiVersion}/${o.kind}; add it to MODELS`);
  try {
    new Model(o as never).validate();
  } catch (error) {
    throw new Error(`${o.kind} ${o.metadata.name}: ${(error as Error).message}`);
  }
}

export type Labels = Record<string, string>;
export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: {
    key: string;
    operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
    values?: string[];
  }[];
}

/** Kubernetes label-selector semantics; an empty selector selects everything. */
export function selects(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const has = key in labels;
    if (operator === "Exists") return has;
    if (operator === "DoesNotExist") return !has;
    const within = has && values.includes(labels[key] as string);
    return operator === "In" ? within : !within;
  });
  return byLabels && byExpressions;
}

export interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string };
      configMapKeyRef?: { name: string; key: string };
    };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
  readinessProbe?: { httpGet?: { path: string; port?: string | number } };
  livenessProbe?: { httpGet?: { path: string } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts?: { name: string; mountPath: string }[];
}
export interface PodSpec {
  containers: Container[];
  securityContext?: Record<string, unknown> & { seccompProfile?: { type: string } };
  volumes?: { name: string; emptyDir?: object }[];
  terminationGracePeriodSeconds?: number;
}

export const workloads = (objects: Manifest[]) => objects.filter((o) => podSpecOf(o) !== undefined);
export const podOf = (o: Manifest) => podSpecOf(o) as unknown as PodSpec;
export const podLabels = (o: Manifest) =>
  ((podTemplateOf(o)?.metadata as { labels?: Labels } | undefined)?.labels ?? {}) as Labels;

/** A peer outside the cluster's pods: an address range and port, as NetworkPolicy ipBlocks see it. */
export interface Endpoint {
  labels?: Labels;
  namespaceLabels?: Labels;
  ip?: string;
}

interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyRule {
  ports?: { port?: number | string; protocol?: string }[];
  from?: PolicyPeer[];
  to?: PolicyPeer[];
}
interface PolicySpec {
  podSelector: LabelSelector;
  policyTypes: ("Ingress" | "Egress")[];
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}

const ipToInt = (ip: string) => ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/") as [string, string];
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipToInt(ip) / size) === Math.floor(ipToInt(base) / size);
}

function peerMatches(peer: PolicyPeer, other: Endpoint, ownNamespace: Labels): boolean {
  if (peer.ipBlock)
    return (
      !!other.ip &&
      inCidr(other.ip, peer.ipBlock.cidr) &&
      !(peer.ipBlock.except ?? []).some((c) => inCidr(other.ip as string, c))
    );
  if (!other.labels) return false;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, other.namespaceLabels ?? {})
    : JSON.stringify(other.namespaceLabels ?? ownNamespace) === JSON.stringify(ownNamespace);
  const podOk = peer.podSelector ? selects(peer.podSelector, other.labels) : true;
  return namespaceOk && podOk;
}

function portMatches(rule: PolicyRule, port: number, portName: string | undefined): boolean {
  return (
    !rule.ports ||
    rule.ports.some(
      (p) => p.port === undefined || p.port === port || (portName !== undefined && p.port === portName),
    )
  );
}

/**
 * Whether traffic from `source` to `target` on `port` is allowed by the policies of one namespace:
 * the source's egress (when the source is a pod of the namespace) and the target's ingress (when it is).
 */
export function allowed(
  policies: Manifest[],
  namespace: Labels,
  source: Endpoint,
  target: Endpoint,
  port: number,
  portName?: string,
): boolean {
  const specs = policies.map((p) => p.spec as PolicySpec);
  const side = (pod: Endpoint, type: "Ingress" | "Egress", peer: Endpoint) => {
    const applying = specs.filter(
      (s) => s.policyTypes.includes(type) && selects(s.podSelector, pod.labels ?? {}),
    );
    if (applying.length === 0) return true;
    return applying.some((s) =>
      (type === "Ingress" ? s.ingress : s.egress)?.some((rule) => {
        const peers = type === "Ingress" ? rule.from : rule.to;
        // A rule without peers admits every peer.
        return (
          portMatches(rule, port, portName) &&
          (!peers?.length || peers.some((p) => peerMatches(p, peer, namespace)))
        );
      }),
    );
  };
  const sourceIsHere = !!source.labels && !source.namespaceLabels;
  const targetIsHere = !!target.labels && !target.namespaceLabels;
  return (
    (!sourceIsHere || side(source, "Egress", target)) && (!targetIsHere || side(target, "Ingress", source))
  );
}
