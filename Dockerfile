# Morale Officer: a production image (see README, "Self-hosting").
# Build stage: install with the lock file, compile TypeScript to dist/, then drop the build tools
# (npm prune --omit=dev), as README's self-hosting path does. Node 24 LTS: what CI tests the whole suite
# on (22 and 26 are supported too).
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary; the compiler is only a fallback.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json main.ts ./
COPY src ./src
COPY commands ./commands
COPY migrations ./migrations
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: the compiled app and its runtime dependencies, run as the unprivileged `node` user.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    DATABASE_PATH=/data/ledger.db
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
# The ledger (and its heartbeat file) live on this volume: keep it across upgrades.
VOLUME ["/data", "/backups"]
# Healthy only while the bot is connected to Discord and its database is writable.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["node", "dist/src/ops/cli.js", "health"]
# node itself, no shell or npm between: Docker's SIGTERM reaches the bot (its own handler, even as PID 1), which stops within 10 s.
# The morale-officer command: `start` by default; `docker compose run --rm morale-officer deploy-commands`,
# `… backup /backups/<file>`, `… keys show` run the admin commands in the same image and volumes.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/src/ops/cli.js"]
CMD ["start"]
