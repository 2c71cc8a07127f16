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
	"sync"
	"time"

	"github.com/shoebox-app/shoebox/internal/fsutil"
)

// PDFs are read with Debian's poppler-utils and HEIC photos with libheif's
// heif-convert: mature, fast native decoders run as child processes, so a
// crash or hang on a hostile file costs one file, never the app.
const toolTimeout = 60 * time.Second

func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	if _, err := exec.LookPath(name); err != nil {
		return nil, missingTool(name)
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

// missingToolError: a decoder Shoebox runs is not on this computer
// (missingTool words it for the system).
type missingToolError struct{ text string }

func (e *missingToolError) Error() string { return e.text }

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

// reSize reads a page size from pdfinfo: "Page size:" for the first page,
// "Page    N size:" when pages are asked for with -f/-l. pdfinfo's page
// size is the CropBox (cut to the MediaBox): the page a PDF viewer shows,
// and the box renderPDFPage has pdftoppm render (-cropbox), so the size
// checked is the size rendered.
var reSize = regexp.MustCompile(`(?m)^Page\s*(\d*)\s+size:\s+([\d.]+) x ([\d.]+) pts`)

// pdfPageSizes returns the size in points of pages first..last (from 1).
func pdfPageSizes(ctx context.Context, path string, first, last int) ([][2]float64, error) {
	info, err := runTool(ctx, "pdfinfo", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), path)
	if err != nil {
		return nil, err
	}
	var sizes [][2]float64
	for _, m := range reSize.FindAllSubmatch(info, -1) {
		w, _ := strconv.ParseFloat(string(m[2]), 64)
		h, _ := strconv.ParseFloat(string(m[3]), 64)
		sizes = append(sizes, [2]float64{w, h})
	}
	if len(sizes) == 0 {
		return nil, fmt.Errorf("pdfinfo found no page size")
	}
	return sizes, nil
}

// checkPageSize refuses a page that at dpi would be over the pixel limit or
// too large for pdftoppm to render faithfully.
func checkPageSize(size [2]float64, dpi int, lim Limits) error {
	w, h := size[0]/72*float64(dpi), size[1]/72*float64(dpi)
	if w < 1 || h < 1 || w > maxRenderSide || h > maxRenderSide {
		return fmt.Errorf("is %.0f×%.0f cm, not a receipt page Shoebox can render", size[0]/72*2.54, size[1]/72*2.54)
	}
	if err := checkPixels(int(w), int(h), lim); err != nil {
		return fmt.Errorf("at %d dpi the page %w", dpi, err)
	}
	return nil
}

// maxRenderSide is the longest side, in pixels, a page is rendered at.
const maxRenderSide = 30000

func renderPDFPage(ctx context.Context, path string, index, dpi int, lim Limits) (image.Image, error) {
	// Guard against a page whose size at this resolution is a bomb: only a
	// page of known, bounded size is rendered.
	sizes, err := pdfPageSizes(ctx, path, index+1, index+1)
	if err != nil {
		return nil, err
	}
	if err := checkPageSize(sizes[0], dpi, lim); err != nil {
		return nil, err
	}
	// A page larger than the engines need is rendered at a lower resolution.
	if lim.WorkPixels > 0 {
		px := sizes[0][0] / 72 * sizes[0][1] / 72 // square inches
		for dpi > 36 && px*float64(dpi)*float64(dpi) > float64(lim.WorkPixels) {
			dpi--
		}
	}
	dir, err := toolDir("pdf")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	prefix := filepath.Join(dir, "page")
	p := strconv.Itoa(index + 1)
	// -cropbox: without it pdftoppm renders the MediaBox, which a hostile
	// file makes 7000 pt square behind a receipt-sized CropBox, past the
	// guard above (issue 38 item 6).
	if _, err := runTool(ctx, "pdftoppm", "-cropbox", "-r", strconv.Itoa(dpi), "-f", p, "-l", p, "-singlefile", "-png", path, prefix); err != nil {
		return nil, err
	}
	return decodeRenderedPNG(prefix+".png", lim)
}

// toolDir makes a private folder in the temp folder for one tool run
// (a rendered page of a client's receipt lands there):
// shoebox-<kind>-<pid>-<random>, removed when the run ends. A process
// killed meanwhile cannot remove it, so the first tool run of each
// process removes such folders whose process is gone (issue 38 item 9).
func toolDir(kind string) (string, error) {
	tmp := os.TempDir()
	swept.Lock()
	if !swept.dirs[tmp] {
		swept.dirs[tmp] = true
		removeStaleToolDirs(tmp)
	}
	swept.Unlock()
	return os.MkdirTemp(tmp, fmt.Sprintf("shoebox-%s-%d-", kind, os.Getpid()))
}

var swept = struct {
	sync.Mutex
	dirs map[string]bool
}{dirs: map[string]bool{}}

// reToolDir matches toolDir's folders, and those of older versions
// (shoebox-pdf-<random>).
var reToolDir = regexp.MustCompile(`^shoebox-(pdf|heic)-(?:(\d+)-)?\d+$`)

// toolDirStale is the age after which a tool folder is a leftover even
// when its process id is in use (reused) or absent (older versions).
const toolDirStale = 10 * time.Minute

// removeStaleToolDirs removes this user's tool folders in tmp whose
// process is gone, and old ones of older versions; nothing else.
func removeStaleToolDirs(tmp string) {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range ents {
		m := reToolDir.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		p := filepath.Join(tmp, e.Name())
		info, err := os.Lstat(p)
		if err != nil || !info.IsDir() || !ownedByMe(info) {
			continue
		}
		// A folder lives for one tool run (cut off after toolTimeout): an
		// old one is a leftover whatever its name says.
		stale := time.Since(info.ModTime()) > toolDirStale
		if pid, err := strconv.Atoi(m[2]); err == nil && pid != os.Getpid() && !fsutil.ProcessAlive(pid) {
			stale = true
		}
		if stale {
			os.RemoveAll(p)
		}
	}
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
	dir, err := toolDir("heic")
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

// decodeRenderedPNG decodes what pdftoppm wrote after checking its size,
// whatever the PDF claimed.
func decodeRenderedPNG(path string, lim Limits) (image.Image, error) {
	f, err := os.Open(path)
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
	if cfg.Width < 8 || cfg.Height < 8 {
		return nil, fmt.Errorf("the page rendered as %d×%d pixels: nothing to read", cfg.Width, cfg.Height)
	}
	need := decodedBytes(cfg)
	release := acquire(need)
	defer release()
	defer afterLargeDecode(need)
	return decodePNGFile(path)
}

func decodePNGFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}
