# Sourced by the load benchmarks: wrk's settings (each may be set in the environment) and one
# measurement, keep-alive, after a 2 s warm-up.
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-64}"
WRK_THREADS="${WRK_THREADS:-2}"
ROUNDS="${ROUNDS:-2}"

measure() {  # label url [wrk args…]: prints "label rps p99_ms notes" after a short warm-up
  local label="$1" url="$2"; shift 2
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d2s "$@" "$url" >/dev/null
  local out rps p99 notes
  out="$(wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" "$url")"
  rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}' <<<"$out")"
  notes="$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')"
  echo "$label $rps $p99 $notes"
}
