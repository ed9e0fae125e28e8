#!/usr/bin/env bash
# libFuzzer run of the HTTP request parser, bounded in time:
#   benchmarks/http/fuzz.sh            # FUZZ_SECONDS=60 by default
# The normal test run has a seeded mutator for the same property (HTTPRequestParserFuzzTests); this
# is the coverage-guided complement. Crashes are written to the temp dir and printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_BOUND="${FUZZ_SECONDS:-60}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
HTTP=Sources/HTTPServer
# The parser imports Wire: build it as a module first, instrumented the same way.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name Wire -emit-module -emit-library -static \
  -emit-module-path "$WORK/Wire.swiftmodule" -o "$WORK/libWire.a" $(find Sources/Wire -name '*.swift') \
  2>"$WORK/build.log" || { cat "$WORK/build.log" >&2; exit 1; }
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name ParserFuzz -I "$WORK" -L "$WORK" -lWire \
  "$HTTP"/Parser/*.swift "$HTTP"/Message/*.swift "$HTTP"/Server/HTTPServerError.swift \
  benchmarks/http/fuzz/ParserFuzzEntry.swift -o "$WORK/parser-fuzzer" 2>"$WORK/build.log" \
  || { cat "$WORK/build.log" >&2; exit 1; }
mkdir -p "$WORK/corpus"
printf 'GET /v1/publications/m/issues?x=1 HTTP/1.1\r\nHost: a\r\n\r\n' > "$WORK/corpus/get"
printf 'POST /e HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc' > "$WORK/corpus/post"
printf 'PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n' > "$WORK/corpus/chunked"
cd "$WORK"
# Swift's own backtracer does not run under ASan; libFuzzer prints the stack instead.
if SWIFT_BACKTRACE=enable=no ./parser-fuzzer -max_total_time="$SECONDS_BOUND" -max_len=1024 -timeout=5 corpus \
    >fuzz.log 2>&1; then
  grep -E '^#[0-9]+.*(DONE|pulse)|^Done' fuzz.log | tail -3
  echo "parser fuzzing: no crash in ${SECONDS_BOUND}s"
else
  grep -vE '^\s*$' fuzz.log | tail -40
  for crash in crash-* timeout-*; do [ -e "$crash" ] && { echo "input $crash:"; xxd "$crash" | head -20; }; done
  exit 1
fi
