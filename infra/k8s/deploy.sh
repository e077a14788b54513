#!/bin/sh
# Deploy an overlay, or one service of it, in the order the manifests need:
#   1. (whole overlay only) namespace, shared config, network policies, ingress and Redis;
#   2. the migration Jobs, awaited: a failed migration stops the deploy before any pod changes;
#   3. the services, awaited until every rollout is complete.
# Usage: infra/k8s/deploy.sh <dev|prod> [gateway|leads|settings|tracking|mailer]
set -eu

overlay="${1:?usage: deploy.sh <dev|prod> [service]}"
service="${2:-}"
dir="$(dirname "$0")/overlays/$overlay"
ns=lease
[ -d "$dir" ] || { echo "no overlay $dir" >&2; exit 2; }

only=""
if [ -n "$service" ]; then
  case "$service" in gateway | leads | settings | tracking | mailer) ;; *) echo "unknown service $service" >&2; exit 2 ;; esac
  only=",app.kubernetes.io/name=$service"
else
  kubectl apply -k "$dir" -l 'app.kubernetes.io/component notin (server,migration)'
fi

for secret in lease-common redis-auth ${service:-gateway leads settings tracking mailer}; do
  case "$secret" in lease-common | redis-auth) name="$secret" ;; *) name="$secret-secrets" ;; esac
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
