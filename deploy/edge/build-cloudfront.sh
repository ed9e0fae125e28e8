#!/usr/bin/env bash
# Writes the CloudFront Function (cloudfront-js-2.0) to standard output: issue-edge.js with its
# comments and indentation stripped and its export turned into a variable, the keys file's
# content (`kid:base64url-secret[,...]`) as TOKEN_KEYS, then cloudfront-function.js.
#   deploy/edge/build-cloudfront.sh /path/to/token-keys > issue-edge-cloudfront.js
# Prints the size to standard error against CloudFront's 10 KB limit on function code.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
keys="$(tr -d ' \t\r\n' < "${1:?usage: build-cloudfront.sh KEYS_FILE}")"
case "$keys" in *[!A-Za-z0-9._:,-]*) echo "the keys file holds characters no key has" >&2; exit 1 ;; esac
out="$(
  # Full-line comments, indentation and trailing `  // ...` comments go (the source keeps
  # `//` inside strings free of a leading blank).
  grep -v '^[[:space:]]*//' "$here/issue-edge.js" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]][[:space:]]*\/\/ .*$//' \
    | grep -v '^$' | sed -e 's/^export default /var issueEdge = /'
  printf "var TOKEN_KEYS = '%s';\n" "$keys"
  grep -v '^[[:space:]]*//' "$here/cloudfront-function.js"
)"
printf '%s\n' "$out"
size=$(printf '%s\n' "$out" | wc -c)
echo "CloudFront function: $size bytes (CloudFront Functions accept at most 10240)" >&2
