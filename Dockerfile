# multi-area-mock as a container image (docs/container.md):
#
#   docker build -t multi-area-mock .
#   docker run --rm -p 127.0.0.1:4000:4000 multi-area-mock
#   curl http://localhost:4000/core/users
#
# Three stages: the first builds and packs the package from this repository
# as `npm pack` does for a release; the second installs that tarball as a
# user's project would, without devDependencies; the image copies the
# installed tree, so it holds what the CLI runs and nothing else.

FROM node:20-slim AS build
WORKDIR /src
# The lockfile first: the dependencies' layer is reused until it changes.
COPY package.json package-lock.json ./
# No install scripts: the build needs none (esbuild runs from its platform
# package), and `prepare` would build before the sources are here.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build \
 && mkdir /pack \
 && npm pack --pack-destination /pack --silent \
 && mv /pack/multi-area-mock-*.tgz /pack/multi-area-mock.tgz

# The packed package installed as a user's project installs it, in a stage of
# its own: the image then copies the installed tree alone (one layer, no
# tarball in it), and a changed tarball is a changed copy for every builder's
# layer cache (podman 4.3 does not see a changed `RUN --mount` source).
FROM node:20-slim AS install
COPY --from=build /pack/multi-area-mock.tgz /tmp/
# The package, msw (its peer: the CLI answers through it) and @redis/client
# (the optional peer `--store` needs, so the replicas of docs/replicas.md run
# from this image); then what the CLI never reads: npm's cache, declarations,
# source maps, READMEs and changelogs. swagger-ui-dist is left out:
# /__mock/docs says how to add it, and /__mock/openapi.json is served without it.
WORKDIR /opt/multi-area-mock
RUN printf '{ "private": true }\n' > package.json \
 && npm install --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --update-notifier=false \
      --cache /tmp/npm-cache /tmp/multi-area-mock.tgz @redis/client@6 \
 && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' -o -iname 'README*' -o -iname 'CHANGELOG*' \) -type f -delete \
 && rm -rf node_modules/multi-area-mock/docs /tmp/npm-cache \
 && mkdir /data && chown node:node /data

FROM node:20-slim
ENV NODE_ENV=production
COPY --from=install /opt/multi-area-mock /opt/multi-area-mock
COPY --from=install --chown=node:node /data /data
# A `--state-file` or `--record` path is relative to /data: mount a volume
# there to keep it (`-v mock-data:/data`).
WORKDIR /data
USER node
EXPOSE 4000
# /__mock/health on the port the command below listens on, with the control
# token when one is set (MULTI_AREA_MOCK_CONTROL_TOKEN): the control API asks
# for it there too. Node's fetch, as slim images have no curl.
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "const token = process.env.MULTI_AREA_MOCK_CONTROL_TOKEN; fetch('http://127.0.0.1:4000/__mock/health', { headers: token ? { authorization: 'Bearer ' + token } : {} }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is process 1: `docker stop` (SIGTERM) reaches the CLI, which closes the
# server and saves the state file before it exits.
ENTRYPOINT ["node", "/opt/multi-area-mock/node_modules/multi-area-mock/bin/multi-area-mock.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "4000"]
