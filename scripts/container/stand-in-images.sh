#!/usr/bin/env bash
# Builds local stand-ins for the images examples/compose/ and
# examples/kubernetes/ name besides multi-area-mock itself, docker.io/library/redis:7.2
# and docker.io/library/nginx:1.27, from Debian's redis-server and nginx-light
# (scripts/container/stand-ins/Dockerfile), for a CI machine that reaches
# Debian's archive but no image registry. Each is built only when its tag is
# absent; the base, node:20-slim, is made first when absent
# (scripts/container/node-base-image.sh).
#
#   scripts/container/stand-in-images.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

"$here/node-base-image.sh" >/dev/null
for pair in redis:docker.io/library/redis:7.2 nginx:docker.io/library/nginx:1.27; do
  target="${pair%%:*}"
  image="${pair#*:}"
  if podman image exists "$image"; then
    echo "stand-in-images: $image is present"
    continue
  fi
  podman build --pull=never --format docker --target "$target" -t "$image" "$here/stand-ins" >/dev/null
  echo "stand-in-images: made $image (Debian's $( [ "$target" = redis ] && echo redis-server || echo nginx-light ))"
done
