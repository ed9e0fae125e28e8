# Sourced by the load benchmarks: refuse busy ports, a temp dir and child processes cleaned up on
# exit (PIDS), and waiting for a port to answer.

require_free_ports() {  # port…: exits when something already listens on one of them
  for port in "$@"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "port $port is already in use; set the benchmark's *_PORT variables" >&2
      exit 1
    fi
  done
}

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

wait_for_port() {  # port: waits until something answers there (at most ~60 s)
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "nothing listens on $1" >&2
  return 1
}

cpu_ticks() {  # pid: the CPU time (user + system) the process has used so far, in clock ticks
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

cpu_per_item() {  # ticks-before ticks-after items: milliseconds of CPU per item, two decimals
  awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (n > 0) ? (b - a) * 1000 / hz / n : 0 }'
}
