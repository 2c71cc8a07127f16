#!/usr/bin/env bash
# `make package`: the three things a bookkeeper downloads, in build/package,
# with SHA256SUMS beside them:
#   shoebox_VERSION_amd64.deb              Debian/Ubuntu (dpkg-deb)
#   shoebox-VERSION-linux-x86_64.tar.xz    a portable folder for any Linux
#   Shoebox-Setup-VERSION.exe              Windows installer (makensis)
# Each holds the program, the PP-OCR models and ONNX Runtime, and the app's
# icon and name from FyneApp.toml. The Linux binary and the Windows build
# (scripts/build-windows.sh) must be there already: the Makefile sees to it.
# PACKAGES="deb tar.xz" builds only those.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
VERSION=${VERSION:-$(scripts/version.sh)}
OUT=build/package
STAGE=build/package-stage
PPOCR=build/lib/ppocr
WIN=build/windows
PACKAGES=${PACKAGES:-deb tar.xz exe}
want() { case " $PACKAGES " in *" $1 "*) return 0 ;; esac; return 1; }
scripts/install-deps.sh dpkg-dev xz-utils nsis imagemagick

toml() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"\(.*\)\"/\1/p" FyneApp.toml; }
icon=$(toml Icon)
website=$(toml Website)
rm -rf "$STAGE" "$OUT"
mkdir -p "$STAGE" "$OUT"

# The Linux program, with the version in `shoebox version`; same flags as
# `make build`, so it links from the build cache.
linux_bin=$STAGE/shoebox
"$GO" build -tags migrated_fynedo -ldflags "-s -w -X main.release=$VERSION" -o "$linux_bin" .

# --- portable tar.xz: shoebox, lib/ppocr, desktop entry and icon ----------
name=shoebox-$VERSION-linux-x86_64
t=$STAGE/$name
mkdir -p "$t/lib/ppocr"
install -m 0755 "$linux_bin" "$t/shoebox"
install -m 0644 "$PPOCR"/* "$t/lib/ppocr/"
install -m 0644 packaging/linux/shoebox.desktop "$t/shoebox.desktop"
convert "$icon" -resize 256x256 "$t/shoebox.png"
cat > "$t/README.txt" <<TXT
Shoebox $VERSION for Linux (x86-64)

Run ./shoebox from this folder (keep lib/ beside it: the page reader's
models and ONNX Runtime are there). Shoebox needs Tesseract for its second
reader and poppler for PDFs:
  sudo apt-get install tesseract-ocr tesseract-ocr-eng poppler-utils
Your library is kept in ~/.local/share/shoebox, apart from this folder.
$website
TXT
want tar.xz && tar -C "$STAGE" --owner=0 --group=0 --numeric-owner -cJf "$OUT/$name.tar.xz" "$name"

# --- .deb: /usr/lib/shoebox/{bin,lib/ppocr}, /usr/bin/shoebox links there --
deb_root=$STAGE/deb
arch=amd64
mkdir -p "$deb_root/DEBIAN" "$deb_root/usr/lib/shoebox/bin" "$deb_root/usr/lib/shoebox/lib/ppocr" \
  "$deb_root/usr/bin" "$deb_root/usr/share/applications" "$deb_root/usr/share/icons/hicolor/256x256/apps" \
  "$deb_root/usr/share/doc/shoebox"
install -m 0755 "$linux_bin" "$deb_root/usr/lib/shoebox/bin/shoebox"
install -m 0644 "$PPOCR"/* "$deb_root/usr/lib/shoebox/lib/ppocr/"
ln -s ../lib/shoebox/bin/shoebox "$deb_root/usr/bin/shoebox"
install -m 0644 packaging/linux/shoebox.desktop "$deb_root/usr/share/applications/shoebox.desktop"
cp "$t/shoebox.png" "$deb_root/usr/share/icons/hicolor/256x256/apps/shoebox.png"
chmod 0644 "$deb_root/usr/share/icons/hicolor/256x256/apps/shoebox.png"
printf 'Shoebox %s\n%s\n' "$VERSION" "$website" > "$deb_root/usr/share/doc/shoebox/README"
# The Debian packages of the shared libraries the program links itself
# (its NEEDED entries, found with ldd, then dpkg -S; theirs follow from
# those packages' own dependencies), plus the programs and data it runs:
# Tesseract's English data, poppler for PDFs.
needed=$(objdump -p "$linux_bin" | awk '/NEEDED/{print $2}')
libs=$(for n in $needed; do ldd "$linux_bin" | awk -v n="$n" '$1 == n && $3 ~ /^\//{print $3}'; done | xargs -r realpath | sort -u)
owner() { { dpkg -S "$1" 2>/dev/null || dpkg -S "${1#/usr}" 2>/dev/null; } | head -1 | cut -d: -f1; } # usrmerge: either spelling
pkgs=$(for l in $libs; do owner "$l"; done | sort -u | grep -v '^libc6$' || true)
depends="libc6 (>= 2.36)"
for p in $pkgs; do depends="$depends, $p"; done
depends="$depends, tesseract-ocr, tesseract-ocr-eng, poppler-utils"
size=$(du -sk "$deb_root/usr" | cut -f1)
cat > "$deb_root/DEBIAN/control" <<CTL
Package: shoebox
Version: $VERSION
Architecture: $arch
Maintainer: Shoebox <shoebox@localhost>
Installed-Size: $size
Depends: $depends
Recommends: libheif-examples, tesseract-ocr-deu, tesseract-ocr-fra, tesseract-ocr-nld, tesseract-ocr-ita, tesseract-ocr-spa, tesseract-ocr-por, tesseract-ocr-fin, tesseract-ocr-swe, tesseract-ocr-dan, tesseract-ocr-nor, tesseract-ocr-pol, tesseract-ocr-bul
Section: office
Priority: optional
Homepage: $website
Description: receipts and invoices read on your own computer, for your books
 Shoebox reads receipts and invoices (photos, scans, PDFs) on this computer,
 lets a bookkeeper review and confirm each one, and exports a workbook or
 import files for Xero, MYOB and QuickBooks. Nothing is uploaded.
CTL
deb=$OUT/shoebox_${VERSION}_$arch.deb
want deb && dpkg-deb --root-owner-group -Zxz --build "$deb_root" "$deb" >/dev/null

# --- Windows installer --------------------------------------------------
numver=$(echo "$VERSION" | grep -o '^[0-9]*\.[0-9]*\.[0-9]*').0
setup=Shoebox-Setup-$VERSION.exe
want exe && makensis -V2 -DVERSION="$VERSION" -DNUMVERSION="$numver" -DSRC="$(realpath "$WIN")" \
  -DOUTFILE="$(realpath "$OUT")/$setup" packaging/windows/shoebox.nsi

rm -rf "$STAGE"
cd "$OUT"
shopt -s nullglob
files=(*.deb *.tar.xz *.exe)
sha256sum -- "${files[@]}" > SHA256SUMS
echo "packages in $OUT (version $VERSION):"
for f in "${files[@]}"; do
  printf '  %-48s %6.1f MB  sha256 %s\n' "$f" "$(awk "BEGIN{print $(stat -c %s "$f")/1e6}")" "$(grep " $f\$" SHA256SUMS | cut -c1-64)"
done
