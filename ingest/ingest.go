package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders register themselves with image.Decode
	_ "image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/shoebox-app/shoebox/einvoice"
)

// Limits are the guards against hostile or mistaken input.
type Limits struct {
	MaxBytes    int64 // larger files are refused before they are read
	MaxPixels   int   // images (and rendered PDF pages) above this are refused: decompression bombs
	MaxPDFPages int
	PDFDPI      int // resolution PDF pages are rendered at
	// WorkPixels caps the pixels of a page handed on: larger pages are
	// rendered at a lower resolution or shrunk after decoding (0: no cap).
	WorkPixels int
}

// DefaultLimits suit receipts: 80 megapixels, 200 MB, 50-page PDFs at 200 dpi.
func DefaultLimits() Limits {
	return Limits{MaxBytes: 200 << 20, MaxPixels: 80_000_000, MaxPDFPages: 50, PDFDPI: 200, WorkPixels: DefaultWorkPixels}
}

// Refusal is the error for a file that will not be imported, with a reason a
// bookkeeper can act on.
type Refusal struct {
	Path   string
	Reason string
	Err    error // the underlying error, if any
}

func (r *Refusal) Error() string { return filepath.Base(r.Path) + ": " + r.Reason }
func (r *Refusal) Unwrap() error { return r.Err }

func refuse(path string, err error, format string, args ...any) *Refusal {
	return &Refusal{Path: path, Reason: fmt.Sprintf(format, args...), Err: err}
}

// refusePDF says why a PDF's pages could not be listed: a tool that is
// missing is no fault of the file.
func refusePDF(path string, err error) *Refusal {
	var missing *missingToolError
	if errors.As(err, &missing) {
		return refuse(path, err, "cannot be opened: %v", err)
	}
	return refuse(path, err, "is a damaged PDF: %v", err)
}

// File is a probed file: what it is, its identity, and its page count.
type File struct {
	Path   string
	Size   int64
	SHA256 string
	Kind   Kind
	Pages  int
	Width  int // of an image as stored, before EXIF orientation; 0 for PDF and HEIC
	Height int
}

// Page is one page ready for an engine.
type Page struct {
	Index int
	Image image.Image
	// Text is the PDF text layer of the page ("" for images and scanned PDFs).
	Text string
}

// Probe identifies a file by content, hashes it and checks the limits,
// without decoding whole images. A file that passes may still fail to
// decode: LoadPage finds truncation.
func Probe(ctx context.Context, path string, lim Limits) (File, error) {
	f := File{Path: path}
	fh, st, err := OpenRegular(path)
	if err != nil {
		return f, err
	}
	defer fh.Close()
	f.Size = st.Size()
	if f.Size == 0 {
		return f, refuse(path, nil, "is empty (0 bytes)")
	}
	if lim.MaxBytes > 0 && f.Size > lim.MaxBytes {
		return f, refuse(path, nil, "is %s, over the %s limit for one receipt", humanBytes(f.Size), humanBytes(lim.MaxBytes))
	}
	h := sha256.New()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(fh, head)
	head = head[:n]
	if k, _ := Sniff(head); k == XML && f.Size > einvoice.MaxXMLBytes {
		return f, probeXML(path, f.Size) // refused before hashing a huge file
	}
	h.Write(head)
	if _, err := io.Copy(h, fh); err != nil {
		return f, refuse(path, err, "cannot be read: %v", err)
	}
	f.SHA256 = hex.EncodeToString(h.Sum(nil))
	f.Kind, err = Sniff(head)
	if err != nil {
		return f, refuse(path, err, "is not a receipt Shoebox can open (JPEG, PNG, WebP, TIFF, BMP, HEIC, PDF or an e-invoice XML)%s", describeContent(head))
	}
	switch f.Kind {
	case PDF:
		pages, err := pdfPageCount(ctx, path)
		if err != nil {
			return f, refusePDF(path, err)
		}
		if pages == 0 {
			return f, refuse(path, nil, "is a PDF with no pages")
		}
		if lim.MaxPDFPages > 0 && pages > lim.MaxPDFPages {
			return f, refuse(path, nil, "is a PDF of %d pages, over the limit of %d: split it or raise the limit", pages, lim.MaxPDFPages)
		}
		sizes, err := pdfPageSizes(ctx, path, 1, pages)
		if err != nil {
			return f, refusePDF(path, err)
		}
		for i, size := range sizes {
			if lim.PDFDPI <= 0 {
				break
			}
			if err := checkPageSize(size, lim.PDFDPI, lim); err != nil {
				return f, refuse(path, err, "page %d %v", i+1, err)
			}
		}
		f.Pages = pages
	case HEIC:
		f.Pages = 1
	case XML:
		if err := probeXML(path, f.Size); err != nil {
			return f, err
		}
		f.Pages = 1
	default:
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return f, refuse(path, err, "cannot be read: %v", err)
		}
		cfg, _, err := image.DecodeConfig(fh)
		if err != nil {
			return f, refuse(path, err, "is a damaged %s image: %v", strings.TrimPrefix(string(f.Kind), "image/"), err)
		}
		if err := checkPixels(cfg.Width, cfg.Height, lim); err != nil {
			return f, refuse(path, err, "%v", err)
		}
		f.Pages, f.Width, f.Height = 1, cfg.Width, cfg.Height
	}
	return f, nil
}

// OpenRegular opens a file for reading only if it is a regular file (links
// followed), without blocking: a named pipe, a device or a socket is refused
// at once instead of hanging the import, and /dev/zero is not "empty".
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, refuseOpen(path, err)
	}
	fh := os.NewFile(uintptr(fd), path)
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, nil, refuse(path, err, "cannot be read: %v", err)
	}
	if !st.Mode().IsRegular() {
		fh.Close()
		return nil, nil, refuse(path, nil, "%s", notRegular(st.Mode()))
	}
	// Regular files never block; clear the flag so reads behave as usual.
	if err := syscall.SetNonblock(fd, false); err != nil {
		fh.Close()
		return nil, nil, err
	}
	return fh, st, nil
}

func refuseOpen(path string, err error) *Refusal {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return refuse(path, err, "is a link that loops back on itself")
	case errors.Is(err, syscall.ENOENT):
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			return refuse(path, err, "is a link to %s, which does not exist", target)
		}
	case errors.Is(err, syscall.ENXIO):
		return refuse(path, err, "is a socket or device, not a file")
	}
	return refuse(path, err, "cannot be read: %v", unwrapPathError(err))
}

func notRegular(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "is a folder"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe, not a file: copy what it holds into a file and import that"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "is a device, not a file"
	case m&fs.ModeSocket != 0:
		return "is a socket, not a file"
	}
	return "is not a regular file"
}

func checkPixels(w, h int, lim Limits) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("has no pixels (%d×%d)", w, h)
	}
	if lim.MaxPixels > 0 && int64(w)*int64(h) > int64(lim.MaxPixels) {
		return fmt.Errorf("is %d×%d pixels (%.0f megapixels), over the %d-megapixel limit: scan at a lower resolution", w, h, float64(w)*float64(h)/1e6, lim.MaxPixels/1_000_000)
	}
	return nil
}

// LoadPage decodes page index (from 0) of a probed file, with EXIF
// orientation applied and, for PDFs, rendered at lim.PDFDPI with its text layer.
func LoadPage(ctx context.Context, f File, index int, lim Limits) (Page, error) {
	return loadPage(ctx, f, index, lim, lim.PDFDPI, true)
}

// LoadPreview decodes the first page at low resolution for a thumbnail.
func LoadPreview(ctx context.Context, f File, lim Limits) (image.Image, error) {
	p, err := loadPage(ctx, f, 0, lim, 50, false)
	return p.Image, err
}

func loadPage(ctx context.Context, f File, index int, lim Limits, dpi int, withText bool) (Page, error) {
	p := Page{Index: index}
	if index < 0 || index >= max(f.Pages, 1) {
		return p, fmt.Errorf("%s has no page %d", filepath.Base(f.Path), index+1)
	}
	switch f.Kind {
	case PDF:
		img, err := renderPDFPage(ctx, f.Path, index, dpi, lim)
		if err != nil {
			return p, refuse(f.Path, err, "page %d could not be rendered: %v", index+1, err)
		}
		p.Image = img
		if withText {
			p.Text, _ = pdfPageText(ctx, f.Path, index) // a page without text is fine
		}
		return p, nil
	case XML:
		return loadXMLPage(f, index)
	case HEIC:
		img, err := decodeHEIC(ctx, f.Path, lim)
		if err != nil {
			return p, refuse(f.Path, err, "is a HEIC photo that could not be decoded: %v", err)
		}
		p.Image = img
		return p, nil
	}
	data, err := os.ReadFile(f.Path)
	if err != nil {
		return p, refuse(f.Path, err, "cannot be read: %v", unwrapPathError(err))
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return p, refuse(f.Path, err, "is a damaged %s image: %v", strings.TrimPrefix(string(f.Kind), "image/"), err)
	}
	if err := checkPixels(cfg.Width, cfg.Height, lim); err != nil {
		return p, refuse(f.Path, err, "%v", err)
	}
	work := lim.WorkPixels
	if dpi < lim.PDFDPI && work > 0 {
		work = max(1, work*dpi*dpi/(lim.PDFDPI*lim.PDFDPI)) // a preview needs far fewer
	}
	img, err := decodeToWork(data, f.Kind, cfg, work)
	if err != nil {
		return p, refuse(f.Path, err, "is a damaged %s image: %v", strings.TrimPrefix(string(f.Kind), "image/"), err)
	}
	o := 1
	switch f.Kind {
	case JPEG:
		o = jpegOrientation(data)
	case TIFF:
		o = tiffOrientation(data)
	}
	p.Image = orient(img, o)
	return p, nil
}

// decodeToWork decodes an image file of cfg into a page of at most work
// pixels. A large PNG shrinks while it is read; other images are decoded
// whole, within the decode budget, then shrunk.
func decodeToWork(data []byte, kind Kind, cfg image.Config, work int) (image.Image, error) {
	if kind == PNG && work > 0 && int64(cfg.Width)*int64(cfg.Height) > int64(work) {
		release := acquire(int64(work) * 4)
		img, err := shrinkPNG(data, work)
		release()
		if !errors.Is(err, errInterlaced) {
			return img, err
		}
	}
	need := decodedBytes(cfg)
	release := acquire(need)
	defer release()
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	img = shrinkToWork(img, work)
	afterLargeDecode(need)
	return img, nil
}

// ErrHidden is wrapped by the refusal of a hidden file or folder that a
// folder's walk skipped.
var ErrHidden = errors.New("hidden")

// ReadableName reports a file name of a kind an import takes (a file
// chooser lists these); a Mac's AppleDouble twin (._scan.jpg, its
// metadata, not an image) is none.
func ReadableName(name string) bool { return readableName(name) }

func readableName(name string) bool {
	if strings.HasPrefix(name, "._") {
		return false
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jpg", ".jpeg", ".png", ".webp", ".tif", ".tiff", ".bmp", ".heic", ".heif", ".pdf", ".xml":
		return true
	}
	return false
}

// Walk expands paths into the files to import: folders recursively, in a
// stable order. Hidden files and folders in a folder are skipped, with a
// refusal (wrapping ErrHidden) for each hidden folder and each hidden file
// of a kind Shoebox reads; a hidden file given by name is imported. Paths
// that cannot be read come back as refusals.
func Walk(paths []string) ([]string, []error) {
	var files []string
	var errs []error
	seen := map[string]bool{}
	add := func(p string) {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			errs = append(errs, refuseOpen(root, err))
			continue
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		// A linked folder given by name is walked where it points.
		walkRoot := root
		if resolved, err := filepath.EvalSymlinks(root); err == nil {
			walkRoot = resolved
		}
		var found []string
		err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
			if rel, rerr := filepath.Rel(walkRoot, p); rerr == nil && walkRoot != root {
				p = filepath.Join(root, rel)
			}
			if err != nil {
				errs = append(errs, refuse(p, err, "cannot be read: %v", unwrapPathError(err)))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if p != root && strings.HasPrefix(d.Name(), ".") {
				// Hidden files are skipped (a Mac's ._ twins and .DS_Store,
				// a .thumbnails folder are not receipts), but a hidden
				// folder, or a hidden file of a kind Shoebox reads, gets
				// a line: a bookkeeper counting receipts must see why one
				// is missing (issue 38 item 11).
				if d.IsDir() {
					errs = append(errs, refuse(p, ErrHidden, "is a hidden folder (its name starts with a dot): skipped with everything in it; import it by name to include it"))
					return fs.SkipDir
				}
				if readableName(d.Name()) {
					errs = append(errs, refuse(p, ErrHidden, "is hidden (its name starts with a dot), so it was skipped: import it by name to include it"))
				}
				return nil
			}
			switch {
			case d.Type().IsRegular():
				found = append(found, p)
			case d.IsDir():
			case d.Type()&fs.ModeSymlink != 0:
				// A link to a file is followed once; a link to a folder is
				// not (it could lead back up the tree), and says so.
				target, err := os.Stat(p)
				switch {
				case err != nil:
					errs = append(errs, refuseOpen(p, err))
				case target.Mode().IsRegular():
					found = append(found, p)
				case target.IsDir():
					errs = append(errs, refuse(p, nil, "is a link to a folder, which is not followed: import that folder by name"))
				default:
					errs = append(errs, refuse(p, nil, "%s", notRegular(target.Mode())))
				}
			default:
				errs = append(errs, refuse(p, nil, "%s", notRegular(d.Type())))
			}
			return nil
		})
		if err != nil {
			errs = append(errs, refuse(root, err, "cannot be read: %v", err))
		}
		sort.Strings(found)
		for _, p := range found {
			add(p)
		}
	}
	return files, errs
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func describeContent(head []byte) string {
	if len(head) == 0 {
		return ""
	}
	printable := 0
	for _, b := range head {
		if b == '\n' || b == '\r' || b == '\t' || (b >= 0x20 && b < 0x7f) {
			printable++
		}
	}
	if printable*10 >= len(head)*9 {
		return ": it holds plain text"
	}
	return ""
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
