#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages named as arguments that are missing.
# Runs apt-get as root, or through sudo; otherwise says what to install.
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing missing system packages: ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "No apt-get here. Install these packages (or your system's equivalents) and run make again:" >&2
  echo "  ${missing[*]}" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "Root is needed to install: ${missing[*]}" >&2
  echo "Run as root: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
