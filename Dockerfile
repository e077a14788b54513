# syntax=docker/dockerfile:1
# One Dockerfile for the five service images, built from the repository root:
#   docker build --build-arg SERVICE=leads -t lease/leads:<tag> .
# SERVICE is gateway, leads, settings, tracking, mailer or conversions. The manifests and build stages do not
# depend on it, so BuildKit builds them once and reuses the layers for all five images.

FROM node:20.20.2-bookworm-slim AS manifests
WORKDIR /src
COPY . .
# Only package manifests, so the npm ci layers below stay cached until a dependency changes.
RUN mkdir /manifests \
    && find . -name node_modules -prune -o \( -name package.json -o -name package-lock.json \) -print \
    | xargs cp --parents -t /manifests

FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
COPY --from=manifests /manifests ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# What the runtime image of SERVICE takes from the build: its bundles and migrations (an empty
# folder for a service without tables), the web app for the gateway, and /app/service.js, a link
# to its entry, so one CMD starts whichever service the image holds.
FROM build AS bundle
ARG SERVICE
RUN test -f "services/${SERVICE}/package.json" \
    || { echo "build with --build-arg SERVICE=<gateway|leads|settings|tracking|mailer|conversions>" >&2; exit 1; } \
    && mkdir -p "/out/services/${SERVICE}/migrations" \
    && cp -r "services/${SERVICE}/dist" "/out/services/${SERVICE}/dist" \
    && if [ -d "services/${SERVICE}/migrations" ]; then cp -r "services/${SERVICE}/migrations/." "/out/services/${SERVICE}/migrations/"; fi \
    && if [ "${SERVICE}" = gateway ]; then mkdir -p /out/web && cp -r web/dist /out/web/dist; fi \
    && ln -s "services/${SERVICE}/dist/main.js" /out/service.js

# Runtime dependencies of this workspace only: no dev tools, no other service's packages.
FROM node:20.20.2-bookworm-slim AS deps
ARG SERVICE
WORKDIR /app
COPY --from=manifests /manifests ./
RUN npm ci --omit=dev --workspace=@lease/${SERVICE} --include-workspace-root=false --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force

FROM node:20.20.2-bookworm-slim AS runtime
ARG SERVICE
# PORT is the service's own default (gateway 8080, leads 8081, settings 8082, tracking 8083,
# mailer 8084, conversions 8085); Compose and the manifests set it as well.
ENV SERVICE=${SERVICE} \
    NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0
WORKDIR /app
# Code and dependencies stay owned by root: the process can read them but never rewrite them.
COPY --from=deps /app ./
COPY --from=bundle /out ./
# The node image's unprivileged "node" user, numeric so Kubernetes runAsNonRoot can verify it.
USER 1000:1000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["node", "-e", "const port = process.env.PORT || { gateway: 8080, leads: 8081, settings: 8082, tracking: 8083, mailer: 8084, conversions: 8085 }[process.env.SERVICE]; fetch('http://127.0.0.1:' + port + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself to drain requests and workers.
CMD ["node", "service.js"]
