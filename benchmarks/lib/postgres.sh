# Sourced by the load benchmarks after processes.sh: a throw-away PostgreSQL cluster of the
# benchmark's own with PostgreSQL's durable defaults (fsync and synchronous_commit on, so its
# commits are as durable as SQLite's synchronous=FULL), stopped on exit, and fresh databases in it.

start_durable_cluster() {  # sets PG_CLUSTER_DIR and ISSUE_GATEWAY_TEST_DATABASE_URL; with pg_stat_statements
  local cluster
  cluster="$(PG_CLUSTER_DURABLE=1 PG_CLUSTER_STATEMENTS=1 scripts/pg-cluster start)"
  eval "$cluster"
  trap 'cleanup; scripts/pg-cluster stop "$PG_CLUSTER_DIR"' EXIT
}

fresh_database() {  # name: drops and creates it; prints its URL
  psql -q "$ISSUE_GATEWAY_TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >&2
  psql -q "${ISSUE_GATEWAY_TEST_DATABASE_URL%/postgres}/$1" -c "CREATE EXTENSION pg_stat_statements" >&2
  echo "${ISSUE_GATEWAY_TEST_DATABASE_URL%/postgres}/$1"
}

statement_counts() {  # database: what PostgreSQL ran in it since the last call (pg_stat_statements)
  psql -qAt "${ISSUE_GATEWAY_TEST_DATABASE_URL%/postgres}/$1" -F ' ' -c \
    "SELECT calls, left(regexp_replace(query, '\s+', ' ', 'g'), 110) FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$1') ORDER BY calls DESC LIMIT 40" \
    -c "SELECT pg_stat_statements_reset()" | grep -v '^$' | grep -v '^ *$' | sed '$d'
}
