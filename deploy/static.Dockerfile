# The static deployments: the shell and the five remotes, built once into one image; each runs as a
# container of its own (DEPLOYMENT=shell or a remote's name), all sharing one volume in which every
# remote's builds are kept as immutable release folders and the shell's old hashed files stay
# (scripts/static-container.mjs). Build from the repository root:
#   docker build -f deploy/static.Dockerfile -t finishline-static .
# Not built on the machine this was written on (no container runtime there): see docs/deploy.md.

FROM node:20-bookworm-slim AS build
RUN npm install -g pnpm@10
WORKDIR /app
# Dependencies first, from the lockfile alone, so a code change does not download them again.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
# The six webpack builds, two at a time (each into its own <folder>/dist with its mf-manifest.json).
RUN node scripts/build.mjs

# The servers need Node alone: scripts/serve-static.mjs and what it imports have no dependencies.
FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app/build/ports.mjs /app/build/static-caching.mjs build/
COPY --from=build /app/scripts/serve-static.mjs /app/scripts/static-site.mjs /app/scripts/security-headers.mjs /app/scripts/releases.mjs /app/scripts/static-container.mjs scripts/
COPY --from=build /app/shell/dist shell/dist
COPY --from=build /app/mfe-storefront/dist mfe-storefront/dist
COPY --from=build /app/mfe-account/dist mfe-account/dist
COPY --from=build /app/mfe-partner/dist mfe-partner/dist
COPY --from=build /app/mfe-organiser/dist mfe-organiser/dist
COPY --from=build /app/mfe-certificate/dist mfe-certificate/dist
# The shared volume; RELEASES_DIR and RUNTIME_CONFIG_FILE let `node scripts/releases.mjs list|rollback`
# run in any of the containers against it.
ENV STATIC_DIR=/srv/static \
    RELEASES_DIR=/srv/static/releases \
    RUNTIME_CONFIG_FILE=/srv/static/runtime-config.json
RUN mkdir -p /srv/static && chown node:node /srv/static
USER node
EXPOSE 3000 3001 3002 3003 3004 3005
CMD ["node", "scripts/static-container.mjs"]
