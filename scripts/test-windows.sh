#!/usr/bin/env bash
# `make test-windows`: the Windows build under Wine, in a fresh Wine prefix
# (a new, empty Windows user each run):
#  1. build/windows/shoebox.exe: version; import, process (PP-OCR through
#     onnxruntime.dll, no Tesseract), list and export to xlsx of three dev
#     receipts, into the default library (%LOCALAPPDATA%\Shoebox);
#  2. the installer, silently (/S): files, Start-menu shortcut, uninstall
#     entry; the installed shoebox.exe does the same into another library;
#  3. the uninstaller, silently: the program's folder goes, both libraries
#     stay.
# Needs Debian's wine and wine64 (installed if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
WIN=${WIN:-build/windows}
SETUP=${SETUP:-$(ls build/package/Shoebox-Setup-*.exe 2>/dev/null | head -1)}
DATA=${SHOEBOX_TEST_DATA:-../shared/data/sroie-dev}
[ -d "$DATA" ] || DATA=/work/shared/data/sroie-dev
scripts/install-deps.sh wine wine64 unzip gcc-mingw-w64-x86-64
start=$(date +%s)

export WINEPREFIX
WINEPREFIX=$(mktemp -d "${TMPDIR:-/tmp}/shoebox-wine.XXXXXX")
work=$(mktemp -d "${TMPDIR:-/tmp}/shoebox-wintest.XXXXXX")
trap 'wineserver -k 2>/dev/null || true; rm -rf "$WINEPREFIX" "$work"' EXIT
# No Mono or Gecko download prompts; no Wine chatter; no window needed.
export WINEDLLOVERRIDES="mscoree,mshtml=;bcryptprimitives=n" WINEDEBUG=-all
unset DISPLAY
wineboot --init >/dev/null 2>&1
wineserver -w
scripts/wine-prefix-shim.sh "$WINEPREFIX"
echo "test-windows: fresh Wine prefix ready in $(( $(date +%s) - start )) s"

fail() { echo "test-windows: FAIL: $*" >&2; exit 1; }
winpath() { winepath -w "$1" 2>/dev/null; }
user=$(wine cmd /c 'echo %USERNAME%' 2>/dev/null | tr -d '\r')
appdata_local=$WINEPREFIX/drive_c/users/$user/AppData/Local

receipts=()
for n in 000 006 015; do receipts+=("$(winpath "$(realpath "$DATA/$n.jpg")")"); done

# run EXE NAME ARGS...: the program under Wine, its output in $work/NAME.
run() {
  local exe=$1 name=$2; shift 2
  if ! wine "$exe" "$@" >"$work/$name.out" 2>"$work/$name.err"; then
    cat "$work/$name.out" "$work/$name.err" >&2
    fail "$name: shoebox.exe $* failed"
  fi
  tr -d '\r' <"$work/$name.out" >"$work/$name.txt"
  tr -d '\r' <"$work/$name.err" >>"$work/$name.txt"
}

# check EXE TAG LIBRARY-ARGS...: version, import, process, list, export.
check() {
  local exe=$1 tag=$2; shift 2
  local t0
  t0=$(date +%s)
  run "$exe" "$tag-version" version
  grep -q "^shoebox " "$work/$tag-version.txt" || fail "$tag: version printed no version: $(cat "$work/$tag-version.txt")"
  run "$exe" "$tag-import" import "$@" "${receipts[@]}"
  grep -q "3 added" "$work/$tag-import.txt" || fail "$tag: import: $(cat "$work/$tag-import.txt")"
  run "$exe" "$tag-process" process "$@" --country MY
  grep -q "PP-OCR" "$work/$tag-process.txt" || fail "$tag: process did not read with PP-OCR: $(cat "$work/$tag-process.txt")"
  grep -q "read 3 receipts, 0 failed" "$work/$tag-process.txt" || fail "$tag: process: $(cat "$work/$tag-process.txt")"
  run "$exe" "$tag-list" list "$@" --json
  # The amount itself, under its key: a bare grep for 9.00 once passed on
  # a warning's text that quoted it.
  tr -d ' \n' <"$work/$tag-list.txt" | grep -Eq '"original_name":"000\.jpg"[^}]*"total":"9(\.0+)?"' ||
    fail "$tag: list does not give receipt 000 the total 9.00: $(cat "$work/$tag-list.txt")"
  local xlsx=$work/$tag-receipts.xlsx
  run "$exe" "$tag-export" export "$@" --all -o "$(winpath "$xlsx")"
  [ -s "$xlsx" ] || fail "$tag: export wrote no workbook"
  # The listing first, then grep: under pipefail `unzip -l | grep -q`
  # fails whenever unzip does, even when grep found the sheet.
  local listing
  listing=$(unzip -l "$xlsx" 2>&1) || true
  grep -q "xl/worksheets/sheet1.xml" <<<"$listing" || fail "$tag: $xlsx is not a workbook ($(stat -c %s "$xlsx") bytes): $listing"
  echo "test-windows: $tag: version, import, process (PP-OCR), list, export: ok in $(( $(date +%s) - t0 )) s"
  head -1 "$work/$tag-version.txt"
  grep -v '^\[' "$work/$tag-process.txt" | head -3
}

# 1. The build folder, default library (%LOCALAPPDATA%\Shoebox).
check "$WIN/shoebox.exe" build
[ -f "$appdata_local/Shoebox/library.db" ] || fail "the default library is not in %LOCALAPPDATA%\\Shoebox"

# 2. The installer, silently, per user.
[ -n "$SETUP" ] && [ -f "$SETUP" ] || fail "no installer: run make package"
t0=$(date +%s)
wine "$SETUP" /S >/dev/null 2>&1 || fail "the installer failed"
wineserver -w
inst=$appdata_local/Programs/Shoebox
for f in shoebox.exe shoebox.ico "Uninstall Shoebox.exe" lib/ppocr/onnxruntime.dll lib/ppocr/ch_PP-OCRv4_det_infer.onnx; do
  [ -f "$inst/$f" ] || fail "the installer did not put $f in $inst"
done
lnk=$(find "$WINEPREFIX/drive_c/users/$user" -name 'Shoebox.lnk' | head -1)
[ -n "$lnk" ] || fail "no Start-menu shortcut"
grep -q DisplayVersion <<<"$(wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Shoebox' /v DisplayVersion 2>/dev/null)" ||
  fail "no uninstall entry in the registry"
echo "test-windows: installer /S: $inst, shortcut ${lnk#"$WINEPREFIX"/}, uninstall entry: ok in $(( $(date +%s) - t0 )) s"
second=$(winpath "$work")\\second-library
check "$inst/shoebox.exe" installed --library "$second"

# 3. The uninstaller keeps every library. _?= runs it in place, to the end.
t0=$(date +%s)
wine "$inst/Uninstall Shoebox.exe" /S "_?=$(winpath "$inst")" >/dev/null 2>&1 || fail "the uninstaller failed"
wineserver -w
rm -f "$inst/Uninstall Shoebox.exe" # in place, it cannot delete itself
[ ! -e "$inst/shoebox.exe" ] || fail "the uninstaller left shoebox.exe"
[ ! -e "$inst/lib" ] || fail "the uninstaller left lib"
[ -z "$(find "$WINEPREFIX/drive_c/users/$user" -name 'Shoebox.lnk')" ] || fail "the uninstaller left the shortcut"
[ -f "$appdata_local/Shoebox/library.db" ] || fail "the uninstaller removed the library"
[ -f "$work/second-library/library.db" ] || fail "the uninstaller removed the other library"
n=$(find "$appdata_local/Shoebox/originals" -type f | wc -l)
[ "$n" -ge 3 ] || fail "the library lost its originals ($n left)"
echo "test-windows: uninstaller /S: program gone, libraries kept ($n originals): ok in $(( $(date +%s) - t0 )) s"
echo "test-windows: all passed in $(( $(date +%s) - start )) s"
