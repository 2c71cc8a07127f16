#!/usr/bin/env bash
# Peak memory of `shoebox import` and `shoebox process` over the crafted
# folder (scripts/crafted: 16-bit scans at the pixel limit, a PNG bomb, huge
# PDF pages, a truncated and an empty file). Issue 27 bounds process at 1 GB.
# SHOEBOX names the binary (default build/bin/shoebox, from `make build`).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SHOEBOX:-build/bin/shoebox}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./scripts/crafted "$dir/files"
/usr/bin/time -f "import:  peak %M KB, %e s" "$bin" import --library "$dir/lib" "$dir/files" >/dev/null || true
/usr/bin/time -f "process: peak %M KB, %e s" "$bin" process --library "$dir/lib" --country AU
