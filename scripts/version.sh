#!/usr/bin/env bash
# Prints the version the packages carry, from `git describe`: a tag v1.2.3
# gives 1.2.3 (1.2.3+4.gabc1234 four commits later); with no tag yet,
# FyneApp.toml's version with the commit (0.1.0+git.fb6452d). A tree with
# uncommitted changes ends in .dirty. Only digits, letters, + and . are
# used, so the string is a valid Debian version and a file name everywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if d=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
  d=${d#v}
  case $d in
    *-*) echo "${d%%-*}+$(echo "${d#*-}" | tr - .)" ;;
    *) echo "$d" ;;
  esac
else
  base=$(sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml)
  echo "${base:-0.0.0}+git.$(git describe --always --dirty 2>/dev/null | tr - . || echo unknown)"
fi
