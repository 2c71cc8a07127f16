#!/usr/bin/env bash
# docs/screenshot-windows.png: the Windows build's review screen, run under
# Wine on Xvfb (1366×768), with a library the Windows build itself made
# from the first ten dev receipts (the Linux screenshots' receipts).
set -euo pipefail
cd "$(dirname "$0")/.."
exe=build/windows/shoebox.exe
data=${SHOEBOX_DEMO_DATA:-../shared/data/sroie-dev}
[ -d "$data" ] || data=/work/shared/data/sroie-dev
scripts/install-deps.sh wine wine64 xvfb imagemagick
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;bcryptprimitives=n"
WINEPREFIX=$(mktemp -d "${TMPDIR:-/tmp}/shoebox-wine.XXXXXX")
display=:${SHOEBOX_XVFB_DISPLAY:-96}
Xvfb "$display" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'wineserver -k 2>/dev/null || true; kill $xvfb 2>/dev/null || true; rm -rf "$WINEPREFIX"' EXIT
export DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1
wineboot --init >/dev/null 2>&1
wineserver -w
scripts/wine-prefix-shim.sh "$WINEPREFIX"
lib='C:\demo-library'
files=()
for f in $(ls "$data"/*.jpg | head -10); do files+=("$(winepath -w "$(realpath "$f")")"); done
wine "$exe" import --library "$lib" "${files[@]}" >/dev/null 2>&1
wine "$exe" process --library "$lib" --country MY >/dev/null 2>&1
# An unsure date: its ? mark, the reason and the outline on the scan.
wine "$exe" --library "$lib" --show 9 --focus date >/dev/null 2>&1 &
app=$!
sleep "${SHOEBOX_SCREENSHOT_WAIT:-25}"
import -window root docs/screenshot-windows.png
echo "wrote docs/screenshot-windows.png"
kill $app 2>/dev/null || true
