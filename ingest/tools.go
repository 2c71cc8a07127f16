package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// PDFs are read with Debian's poppler-utils and HEIC photos with libheif's
// heif-convert: mature, fast native decoders run as child processes, so a
// crash or hang on a hostile file costs one file, never the app.
const toolTimeout = 60 * time.Second

func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	if _, err := exec.LookPath(name); err != nil {
		return nil, fmt.Errorf("%s is not installed (run make deps, or apt-get install %s)", name, toolPackage(name))
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("%s took over %s", name, toolTimeout)
		}
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	return stdout.Bytes(), nil
}

func toolPackage(name string) string {
	if strings.HasPrefix(name, "heif") {
		return "libheif-examples"
	}
	return "poppler-utils"
}

var rePages = regexp.MustCompile(`(?m)^Pages:\s+(\d+)`)

func pdfPageCount(ctx context.Context, path string) (int, error) {
	out, err := runTool(ctx, "pdfinfo", path)
	if err != nil {
		return 0, err
	}
	m := rePages.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pdfinfo found no page count")
	}
	return strconv.Atoi(string(m[1]))
}

var reSize = regexp.MustCompile(`(?m)^Page size:\s+([\d.]+) x ([\d.]+) pts`)

func renderPDFPage(ctx context.Context, path string, index, dpi int, lim Limits) (image.Image, error) {
	// Guard against a page whose size at this resolution is a bomb.
	info, err := runTool(ctx, "pdfinfo", "-f", strconv.Itoa(index+1), "-l", strconv.Itoa(index+1), path)
	if err != nil {
		return nil, err
	}
	if m := reSize.FindSubmatch(info); m != nil {
		wpt, _ := strconv.ParseFloat(string(m[1]), 64)
		hpt, _ := strconv.ParseFloat(string(m[2]), 64)
		w, h := int(wpt/72*float64(dpi)), int(hpt/72*float64(dpi))
		if err := checkPixels(w, h, lim); err != nil {
			return nil, fmt.Errorf("at %d dpi the page %v", dpi, err)
		}
	}
	dir, err := os.MkdirTemp("", "shoebox-pdf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	prefix := filepath.Join(dir, "page")
	p := strconv.Itoa(index + 1)
	if _, err := runTool(ctx, "pdftoppm", "-r", strconv.Itoa(dpi), "-f", p, "-l", p, "-singlefile", "-png", path, prefix); err != nil {
		return nil, err
	}
	return decodePNGFile(prefix + ".png")
}

func pdfPageText(ctx context.Context, path string, index int) (string, error) {
	p := strconv.Itoa(index + 1)
	out, err := runTool(ctx, "pdftotext", "-f", p, "-l", p, "-layout", "-enc", "UTF-8", path, "-")
	if err != nil {
		return "", err
	}
	text := strings.TrimRight(strings.ReplaceAll(string(out), "\f", ""), "\n ")
	if strings.TrimSpace(text) == "" {
		return "", nil
	}
	return text, nil
}

func decodeHEIC(ctx context.Context, path string, lim Limits) (image.Image, error) {
	dir, err := os.MkdirTemp("", "shoebox-heic-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "page.png")
	if _, err := runTool(ctx, "heif-convert", path, out); err != nil {
		return nil, err
	}
	f, err := os.Open(out)
	if err != nil {
		return nil, err
	}
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := checkPixels(cfg.Width, cfg.Height, lim); err != nil {
		return nil, err
	}
	return decodePNGFile(out)
}

func decodePNGFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}
