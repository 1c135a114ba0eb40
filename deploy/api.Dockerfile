# The API image: the pnpm workspace's API package and what it imports (shared), run from source
# with tsx as `pnpm start` does. Build from the repository root:
#   docker build -f deploy/api.Dockerfile -t finishline-api .
# Not built on the machine this was written on (no container runtime there): see docs/deploy.md.
FROM node:20-bookworm-slim

RUN npm install -g pnpm@10
WORKDIR /app

# Dependencies first, from the lockfile alone, so a code change does not download them again.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch

COPY . .
# The API, shared, and the root's tools (tsx runs the TypeScript sources).
RUN pnpm install --offline --frozen-lockfile --filter "@finishline/api..." --filter finishline

ENV NODE_ENV=production \
    API_HOST=0.0.0.0 \
    API_PORT=4000
# The data folder still holds what is not shared yet (e.g. tus upload parts): writable by the app user.
RUN mkdir -p /app/.data && chown node:node /app/.data
WORKDIR /app/api
USER node
EXPOSE 4000
# The one-off migration step of a release runs the same image with:
#   node --import /app/node_modules/tsx/dist/loader.mjs src/cli/migrate.ts
CMD ["node", "--import", "/app/node_modules/tsx/dist/loader.mjs", "src/main.ts"]
