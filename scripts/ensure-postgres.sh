#!/usr/bin/env bash
# Runs before `npm test`: the store's tests run on a real PostgreSQL server that the tests
# start themselves (test/support/postgres.ts) from Debian's server binaries. Installs the
# `postgresql` package when they are missing and this user can (root with apt-get);
# otherwise says exactly what to run.
set -euo pipefail
bin="${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}"
[ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's postgresql for the store tests (once)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  # The package starts a cluster of its own; the tests start theirs, so leave the port free.
  if command -v pg_ctlcluster >/dev/null 2>&1; then pg_ctlcluster 15 main stop 2>/dev/null || true; fi
  [ -x "$bin/initdb" ] && exit 0
  echo "postgresql is installed but $bin/initdb is not there: set POSTGRES_BIN to the directory of initdb and pg_ctl." >&2
  exit 1
fi
echo "The store tests need PostgreSQL's server binaries in $bin: run 'sudo apt-get install postgresql'," >&2
echo "or set POSTGRES_BIN to the directory holding initdb and pg_ctl." >&2
exit 1
