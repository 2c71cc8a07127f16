#!/usr/bin/env bash
# Takes screenshots of the real app under Xvfb with a demo library made from
# the shared SROIE receipts: docs/screenshot-{main,review,models,hardware}.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/shoebox
data=${SHOEBOX_DEMO_DATA:-../shared/data/sroie-dev}
lib=build/demo-library
out=docs
mkdir -p "$out"
if [ ! -f "$lib/library.db" ]; then
  $bin import --library "$lib" "$data"/*.jpg >/dev/null
  $bin process --library "$lib" --country MY >/dev/null
fi
display=:${SHOEBOX_XVFB_DISPLAY:-97}
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
shot() { # name, seconds to wait, app arguments...
  local name=$1 wait=$2; shift 2
  DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1 $bin --library "$lib" "$@" >/dev/null 2>&1 &
  local app=$!
  sleep "$wait"
  DISPLAY=$display import -window root "$out/screenshot-$name.png"
  kill $app 2>/dev/null || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 $app 2>/dev/null || break; sleep 0.5; done
  kill -9 $app 2>/dev/null || true
  wait $app 2>/dev/null || true
  echo "wrote $out/screenshot-$name.png"
}
shot main 5
shot review 6 --show 2 --focus total
shot models 5 --settings Models
shot hardware 5 --settings Hardware
