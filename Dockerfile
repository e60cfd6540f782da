# One pattern for every process: docker build --build-arg SERVICE=<process> -t school-commerce-<process> .
# SERVICE is a process of libs/config's PROCESS_NAMES (scripts/src/docker/assemble.ts refuses any other)
# or migrate (the migration job: every service's migrations, then exit 0).
ARG NODE_IMAGE=node:24-bookworm-slim

# Install and build once: everything above `ARG SERVICE` is the same layer for every image.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
COPY . .
# The build generates each service's Prisma client (prisma:generate) into its dist.
RUN npm ci && npx nx run-many -t build --parallel=2 --outputStyle=static
ARG SERVICE
RUN node scripts/dist/docker/assemble.js "${SERVICE}" /out

# The process alone: its dist, its workspace libraries' dist, its production dependencies.
FROM ${NODE_IMAGE}
ARG SERVICE
# METRICS_HOST: the gateway's Prometheus listener is reached from outside the container.
ENV NODE_ENV=production HOST=0.0.0.0 METRICS_HOST=0.0.0.0 SERVICE=${SERVICE}
WORKDIR /app
COPY --from=build /out ./
USER node
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "scripts/dist/docker/healthcheck.js"]
# Exec form: node is PID 1 and receives SIGTERM itself (graceful shutdown in every process).
STOPSIGNAL SIGTERM
# No --enable-source-maps: 10-20 MB per process for TypeScript lines in stack traces; an operator who
# wants them sets NODE_OPTIONS="--enable-source-maps --max-semi-space-size=4" (docs/configuration.md).
CMD ["node", "entrypoint.mjs"]
