#!/usr/bin/env bash
# Shoebox needs Go 1.26 or newer; Debian's golang package is older, so it is
# not installed for you.
set -euo pipefail
if ! command -v go >/dev/null 2>&1; then
  echo "Go is not on PATH. Install Go 1.26+ from https://go.dev/dl/ (tar -C /usr/local -xzf go1.26*.tar.gz; export PATH=/usr/local/go/bin:\$PATH)." >&2
  exit 1
fi
v=$(go env GOVERSION | sed 's/^go//')
major=${v%%.*}; rest=${v#*.}; minor=${rest%%.*}
if [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -lt 26 ]; }; then
  echo "Go $v is too old: Shoebox needs Go 1.26+ (https://go.dev/dl/)." >&2
  exit 1
fi
