#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for bullswarm's tests and benchmarks: initdb into a new temporary
# folder, run as a non-root user, listening only on a Unix socket inside that folder (no TCP port,
# so clusters never collide), torn down with the folder.
#
#   tooling/scripts/test-postgres.sh start [--durable]
#       prints BULLSWARM_TEST_PG_URL=<url> and BULLSWARM_TEST_PG_DIR=<folder> (shell assignments).
#       Without --durable the cluster runs fsync=off (tests); with it, the server's defaults (benchmarks).
#   tooling/scripts/test-postgres.sh stop <folder>     stop the server, remove the folder
#   tooling/scripts/test-postgres.sh halt <folder>     stop the server at once (-m immediate), keep the folder
#   tooling/scripts/test-postgres.sh resume <folder>   start a halted server again
#
# The binaries: pg_ctl/initdb on PATH, else the newest /usr/lib/postgresql/*/bin (Debian's
# postgresql package puts them there, off PATH). As root, the server runs as the `postgres` user
# (Debian's package creates it), else as a `bullswarm-pg` system user created here.
set -euo pipefail
# The server user may not be able to read the caller's working directory.
cd /tmp

die() {
  echo "test-postgres.sh: $*" >&2
  exit 1
}

find_bin() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  local newest=""
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && newest=$dir
  done
  [ -n "$newest" ] || die "PostgreSQL is not installed (no pg_ctl on PATH or in /usr/lib/postgresql/*/bin): apt-get install postgresql"
  echo "$newest"
}

run_as() {
  local user=$1
  shift
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

server_user() {
  if [ "$(id -u)" -ne 0 ]; then
    id -un
  elif id postgres >/dev/null 2>&1; then
    echo postgres
  else
    id bullswarm-pg >/dev/null 2>&1 ||
      useradd --system --no-create-home --shell /usr/sbin/nologin bullswarm-pg >/dev/null 2>&1 ||
      die "cannot create the user bullswarm-pg to run the test server as (the server refuses to run as root)"
    echo bullswarm-pg
  fi
}

start_server() {
  local dir=$1 bin user
  bin=$(cat "$dir/bin")
  user=$(stat -c %U "$dir")
  # shellcheck disable=SC2046
  run_as "$user" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(cat "$dir/options")" start >/dev/null ||
    {
      cat "$dir/server.log" >&2 || true
      return 1
    }
}

cmd=${1:-}
case "$cmd" in
start)
  durable=0
  [ "${2:-}" = "--durable" ] && durable=1
  bin=$(find_bin)
  user=$(server_user)
  dir=$(mktemp -d /tmp/bullswarm-pg.XXXXXX)
  trap 'rm -rf "$dir"' ERR
  echo "$bin" >"$dir/bin"
  options="-c listen_addresses='' -k $dir -c unix_socket_permissions=0777 -c max_connections=200"
  [ "$durable" -eq 0 ] && options="$options -c fsync=off -c full_page_writes=off"
  echo "$options" >"$dir/options"
  chown "$user" "$dir" "$dir/bin" "$dir/options" 2>/dev/null || true
  chmod 0700 "$dir"
  run_as "$user" "$bin/initdb" -D "$dir/data" -U bullswarm -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
    {
      cat "$dir/initdb.log" >&2
      die "initdb failed"
    }
  if ! start_server "$dir"; then
    rm -rf "$dir"
    die "the server did not start"
  fi
  run_as "$user" "$bin/psql" -h "$dir" -U bullswarm -d postgres -qAt -c 'CREATE DATABASE bullswarm' >/dev/null
  trap - ERR
  echo "BULLSWARM_TEST_PG_URL=postgresql://bullswarm@localhost/bullswarm?host=$dir"
  echo "BULLSWARM_TEST_PG_DIR=$dir"
  ;;
stop)
  dir=${2:?usage: test-postgres.sh stop <folder>}
  case "$dir" in /tmp/bullswarm-pg.*) ;; *) die "refusing to remove $dir (not a folder this script made)" ;; esac
  if [ -d "$dir/data" ]; then
    run_as "$(stat -c %U "$dir")" "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
halt)
  dir=${2:?usage: test-postgres.sh halt <folder>}
  run_as "$(stat -c %U "$dir")" "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m immediate -w -t 60 stop >/dev/null
  ;;
resume)
  dir=${2:?usage: test-postgres.sh resume <folder>}
  start_server "$dir"
  ;;
*)
  die "usage: test-postgres.sh start [--durable] | stop <folder> | halt <folder> | resume <folder>"
  ;;
esac
