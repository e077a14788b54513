#!/bin/sh
# Deploy an overlay, or one service of it, in the order the manifests need:
#   1. (whole overlay only) namespace, shared config, network policies, ingress and Redis;
#   2. the migration Jobs, awaited: a failed migration stops the deploy before any pod changes;
#   3. the services, awaited until every rollout is complete.
# Usage: infra/k8s/deploy.sh <dev|prod> [gateway|leads|settings|tracking|mailer|conversions]
set -eu

overlay="${1:?usage: deploy.sh <dev|prod> [service]}"
service="${2:-}"
dir="$(dirname "$0")/overlays/$overlay"
ns=lease
[ -d "$dir" ] || { echo "no overlay $dir" >&2; exit 2; }

only=""
if [ -n "$service" ]; then
  case "$service" in gateway | leads | settings | tracking | mailer | conversions) ;; *) echo "unknown service $service" >&2; exit 2 ;; esac
  only=",app.kubernetes.io/name=$service"
else
  kubectl apply -k "$dir" -l 'app.kubernetes.io/component notin (server,migration)'
fi

# Each service reads <name>-secrets (its own role) and its migration Job <name>-migration (the
# schema owner's role); an overlay with the backup CronJob also needs postgres-backup.
secrets="lease-common redis-auth"
for name in ${service:-gateway leads settings tracking mailer conversions}; do secrets="$secrets $name-secrets $name-migration"; done
if [ -z "$service" ] && grep -q 'backup-cronjob.yaml' "$dir/kustomization.yaml"; then secrets="$secrets postgres-backup"; fi
for name in $secrets; do
  kubectl -n "$ns" get secret "$name" >/dev/null 2>&1 || {
    echo "secret $name is missing: create it from infra/k8s/secrets/secrets.example.yaml" >&2
    exit 1
  }
done

migrations="app.kubernetes.io/component=migration$only"
# A Job's pod template is immutable: the previous run goes before the new image's run is applied.
kubectl -n "$ns" delete job -l "$migrations" --ignore-not-found --wait=true
kubectl apply -k "$dir" -l "$migrations"
if ! kubectl -n "$ns" wait --for=condition=complete job -l "$migrations" --timeout=10m; then
  kubectl -n "$ns" logs -l "$migrations" --tail=50 --prefix >&2 || true
  echo "migrations did not complete; no service was changed" >&2
  exit 1
fi

servers="app.kubernetes.io/component=server$only"
kubectl apply -k "$dir" -l "$servers"
for deployment in $(kubectl -n "$ns" get deployment -l "$servers" -o name); do
  kubectl -n "$ns" rollout status "$deployment" --timeout=10m
done
