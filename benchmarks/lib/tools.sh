# Sourced by the load benchmarks: installs the commands they drive (wrk, nginx, curl) when missing,
# through apt-get (with sudo unless root).

require_tools() {  # command…: installs the package of that name for each one not found
  local need=() tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || need+=("$tool")
  done
  [ ${#need[@]} -gt 0 ] || return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
}
