#!/usr/bin/env bash
# Puts packaging/windows/wine/bcryptprimitives.dll, built with MinGW, in a
# Wine prefix's system32: Go's Windows runtime needs its ProcessPrng, which
# Windows 10 and later have and Debian's Wine 8.0 lacks. For the Wine checks
# only; run Wine with WINEDLLOVERRIDES containing bcryptprimitives=n.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$1
dll=build/windows-wine/bcryptprimitives.dll
src=packaging/windows/wine/bcryptprimitives.c
if [ ! -f "$dll" ] || [ "$src" -nt "$dll" ]; then
  mkdir -p "$(dirname "$dll")"
  x86_64-w64-mingw32-gcc-posix -shared -O2 -o "$dll" "$src" -lbcrypt
fi
cp "$dll" "$prefix/drive_c/windows/system32/bcryptprimitives.dll"
