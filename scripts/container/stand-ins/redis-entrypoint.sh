#!/bin/sh
# As the official redis image's entry point: options alone are redis-server's.
set -e
case "$1" in
  -*) set -- redis-server "$@" ;;
esac
if [ "$1" = redis-server ]; then
  shift
  set -- redis-server "$@" --protected-mode no
fi
exec "$@"
