#!/usr/bin/env bash
# `make test-linux-packages`: the .deb installed into an empty root with
# dpkg --root (its dependencies checked against this system's packages, its
# binary's libraries with ldd), the portable tar.xz unpacked, and each
# installed binary reading a dev receipt with PP-OCR (--reader ppocr fails
# rather than fall back when the reader's files are not found beside it). A
# binary copied alone must say where it looked.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=build/package
DATA=${SHOEBOX_TEST_DATA:-../shared/data/sroie-dev}
[ -d "$DATA" ] || DATA=/work/shared/data/sroie-dev
receipt=$(realpath "$DATA/000.jpg")
deb=$(ls "$OUT"/shoebox_*_amd64.deb | head -1)
tarball=$(ls "$OUT"/shoebox-*-linux-x86_64.tar.xz | head -1)
work=$(mktemp -d "${TMPDIR:-/tmp}/shoebox-pkgtest.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "test-linux-packages: FAIL: $*" >&2; exit 1; }
(cd "$OUT" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the packages"

# reads BINARY NAME: the binary reads receipt 000 (total 9.00) with PP-OCR.
reads() {
  HOME=$work/home "$1" extract --reader ppocr --json "$receipt" >"$work/$2.json" 2>"$work/$2.err" ||
    fail "$2: $(cat "$work/$2.err")"
  tr -d ' \n' <"$work/$2.json" | grep -Eq '"total":\{"value":"9(\.0+)?"' || fail "$2: the receipt's total 9.00 was not read"
  echo "test-linux-packages: $2 read a receipt with PP-OCR: ok"
}

# The .deb in an empty root.
root=$work/root
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends --force-not-root -i "$deb" >/dev/null 2>"$work/dpkg.err" || fail "dpkg: $(cat "$work/dpkg.err")"
dpkg --root="$root" -L shoebox >"$work/files"
for f in /usr/bin/shoebox /usr/lib/shoebox/bin/shoebox /usr/lib/shoebox/lib/ppocr/libonnxruntime.so.1 \
  /usr/lib/shoebox/lib/ppocr/ch_PP-OCRv4_rec_infer.onnx /usr/share/applications/shoebox.desktop \
  /usr/share/icons/hicolor/256x256/apps/shoebox.png; do
  grep -qx "$f" "$work/files" || fail "the .deb lacks $f"
done
for p in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*)//; s/ //g'); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || apt-cache show "$p" >/dev/null 2>&1 ||
    fail "the .deb depends on $p, which Debian does not have"
done
if ldd "$root/usr/lib/shoebox/bin/shoebox" | grep -q 'not found'; then fail "$(ldd "$root/usr/lib/shoebox/bin/shoebox" | grep 'not found')"; fi
desktop-file-validate "$root/usr/share/applications/shoebox.desktop" 2>/dev/null || true
echo "test-linux-packages: .deb: $(wc -l <"$work/files") paths, depends on $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | wc -l) packages, all in Debian; ldd complete"
reads "$root/usr/bin/shoebox" deb

# The portable folder.
mkdir -p "$work/portable"
tar -C "$work/portable" -xJf "$tarball"
reads "$(ls -d "$work"/portable/shoebox-*)/shoebox" tar.xz

# A binary alone says where it looked and what to do.
mkdir -p "$work/alone"
cp "$root/usr/lib/shoebox/bin/shoebox" "$work/alone/"
if HOME=$work/home "$work/alone/shoebox" extract --reader ppocr "$receipt" >/dev/null 2>"$work/alone.err"; then
  fail "a binary without its lib folder read with PP-OCR"
fi
grep -q "alone/lib/ppocr or $work/lib/ppocr (missing" "$work/alone.err" && grep -q "install Shoebox again" "$work/alone.err" ||
  fail "a binary without its files said: $(cat "$work/alone.err")"
echo "test-linux-packages: a binary alone says: $(head -1 "$work/alone.err")"
echo "test-linux-packages: all passed"
