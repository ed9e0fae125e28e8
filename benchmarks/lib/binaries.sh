# Sourced by the load benchmarks after processes.sh: GATEWAY and SIMULATOR default to this
# checkout's release builds (built here, the log in $WORK/build.log) unless already set; the
# release before's gateway, when a benchmark compares with it.

build_release_binaries() {  # [gateway]: with `gateway`, the simulator is neither built nor set
  if [ -z "${GATEWAY:-}" ]; then
    echo "building issue-gateway (release)..." >&2
    swift build -c release --product issue-gateway >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
    GATEWAY="$(swift build -c release --show-bin-path)/issue-gateway"
  fi
  if [ "${1:-}" != gateway ] && [ -z "${SIMULATOR:-}" ]; then
    swift build -c release --product appstore-simulator >>"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
    SIMULATOR="$(swift build -c release --show-bin-path)/appstore-simulator"
  fi
}

build_before_gateway() {  # rev: sets BEFORE_GATEWAY to issue-gateway built at rev (release, in $WORK/before) unless set
  [ -z "${BEFORE_GATEWAY:-}" ] || return 0
  echo "building issue-gateway at $1 (release), the release before..." >&2
  mkdir -p "$WORK/before"
  git archive "$1" | tar -x -C "$WORK/before"
  (cd "$WORK/before" && swift build -c release --product issue-gateway) >>"$WORK/build.log" 2>&1 \
    || { cat "$WORK/build.log" >&2; exit 1; }
  BEFORE_GATEWAY="$WORK/before/.build/release/issue-gateway"
}

alternate_with_peer() {  # run: `run LABEL BINARY BACKEND` for each of ROUNDS and BACKENDS, PEER (if set) first
  local round backend
  for round in $(seq 1 "$ROUNDS"); do
    for backend in $BACKENDS; do
      [ -z "$PEER" ] || "$1" peer "$PEER" "$backend"
      "$1" this "$GATEWAY" "$backend"
    done
  done
}
