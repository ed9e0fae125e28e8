# Sourced by the load benchmarks after processes.sh: GATEWAY and SIMULATOR default to this
# checkout's release builds (built here, the log in $WORK/build.log) unless already set.

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

alternate_with_peer() {  # run: `run LABEL BINARY BACKEND` for each of ROUNDS and BACKENDS, PEER (if set) first
  local round backend
  for round in $(seq 1 "$ROUNDS"); do
    for backend in $BACKENDS; do
      [ -z "$PEER" ] || "$1" peer "$PEER" "$backend"
      "$1" this "$GATEWAY" "$backend"
    done
  done
}
