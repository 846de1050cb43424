# syntax=docker/dockerfile:1
# The site as one container image (docs/deployment.md). Build:
#   docker build --build-arg SITE_URL=https://www.nirmaya.example -t nirmaya-site .
# The `build` stage also runs the release step (`npm run db:migrate`, see compose.yaml).
# tests/production/standalone.test.ts copies what the COPY --from=build lines below copy and runs it:
# keep every runtime file in those lines.

# The Node.js line of every stage: 26, LTS until 2029-04-30, on Debian 13 (docs/deployment.md, "The
# runtime"). .ci/image-node reads the major version here and runs the production tests on it.
# Pin a release or digest with --build-arg NODE_IMAGE=node:26.12.1-trixie-slim@sha256:...
ARG NODE_IMAGE=node:26-trixie-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /src
COPY package.json package-lock.json ./
# npm install, not npm ci: the lockfile omits other platforms' optional packages (README).
RUN npm install --no-audit --no-fund

FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /src/node_modules ./node_modules
COPY . .
# Prerendered pages take the public URL at build time (canonical links, sitemap, share images).
ARG SITE_URL
ENV SITE_URL=${SITE_URL}
# `npm run build` = next build + the CSP manifest + the complete standalone bundle.
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -m 700 /data && chown node:node /data
# MALLOC_ARENA_MAX: glibc gives each thread (libuv's pool reads files, compresses) its own malloc
# arena; with two, an instance's resident memory stays within a few MB under a steady load instead
# of swinging by tens (docs/performance.md, "Memory").
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# Owned by root: the app directory is read-only for the server; only DATA_DIR is writable.
COPY --from=build /src/.next/standalone ./
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini is PID 1: it forwards SIGTERM to node (graceful shutdown) and reaps zombies.
# serve/start.mjs is the seam in front of Next.js (src/seam/server.ts, bundled by the build), the
# entry `npm start` runs too: brotli, the page rewrite, direct routes, then Next.js's handler.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "serve/start.mjs"]
