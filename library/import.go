package library

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/fsutil"
)

// Outcome is what happened to one file given to Import.
type Outcome string

// The outcomes of an import.
const (
	Added     Outcome = "added"
	Duplicate Outcome = "duplicate" // the same file (by SHA-256) is already in the library
	Refused   Outcome = "refused"
)

// ImportResult reports one file.
type ImportResult struct {
	Path    string
	Outcome Outcome
	ID      int64  // the new receipt, or the existing one for a duplicate
	Reason  string // why it was refused
	Pages   int
}

// ThumbSize is the longest side of a thumbnail, in pixels.
const ThumbSize = 256

// Import walks paths (files and folders) and imports every file, going on
// past refusals, and returns the results in the order of the walk. progress,
// if not nil, is called after each file (one call at a time).
func (l *Library) Import(ctx context.Context, paths []string, lim ingest.Limits, progress func(ImportResult)) []ImportResult {
	files, walkErrs := ingest.Walk(paths)
	var out []ImportResult
	for _, err := range walkErrs {
		var ref *ingest.Refusal
		if errors.As(err, &ref) {
			r := ImportResult{Path: ref.Path, Outcome: Refused, Reason: ref.Reason}
			out = append(out, r)
			if progress != nil {
				progress(r)
			}
		}
	}
	// Decoding, copying and thumbnails run on every core; the inserts go in
	// walk order, so receipt numbers follow the order the files were given.
	ready := make([]chan prepared, len(files))
	for i := range ready {
		ready[i] = make(chan prepared, 1)
	}
	next := make(chan int)
	for w := 0; w < min(runtime.NumCPU(), max(1, len(files))); w++ {
		go func() {
			for i := range next {
				ready[i] <- l.prepare(ctx, files[i], lim)
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range files {
			if ctx.Err() != nil {
				for j := i; j < len(files); j++ {
					ready[j] <- prepared{res: ImportResult{Path: files[j]}, skip: true}
				}
				return
			}
			next <- i
		}
	}()
	for i := range files {
		p := <-ready[i]
		if p.skip {
			continue
		}
		r := l.commit(ctx, p)
		out = append(out, r)
		if progress != nil {
			progress(r)
		}
	}
	return out
}

// prepared is a file made ready for its insert.
type prepared struct {
	res    ImportResult
	file   ingest.File
	stored string
	done   bool // res is final (refused or duplicate)
	skip   bool // cancelled before it was read
}

// ImportFile imports one file: probe, decode (to refuse damaged files),
// store the original by SHA-256, make a thumbnail, insert the receipt.
func (l *Library) ImportFile(ctx context.Context, path string, lim ingest.Limits) ImportResult {
	return l.commit(ctx, l.prepare(ctx, path, lim))
}

func (l *Library) prepare(ctx context.Context, path string, lim ingest.Limits) prepared {
	p := prepared{res: ImportResult{Path: path}, done: true}
	refused := func(err error) prepared {
		p.res.Outcome = Refused
		var ref *ingest.Refusal
		if errors.As(err, &ref) {
			p.res.Reason = ref.Reason
		} else {
			p.res.Reason = err.Error()
		}
		return p
	}
	// The copy in the library is what gets probed and hashed, so the hash
	// is always that of the bytes stored, whatever happens to the source.
	staged, err := l.stage(path, lim)
	if err != nil {
		return refused(err)
	}
	defer os.Remove(staged) // gone already once it has been stored
	f, err := ingest.Probe(ctx, staged, lim)
	if err != nil {
		return refused(err)
	}
	p.file, p.res.Pages = f, f.Pages
	if id, ok, err := l.idBySHA(f.SHA256); err != nil {
		return refused(err)
	} else if ok {
		p.res.Outcome, p.res.ID = Duplicate, id
		return p
	}
	preview, err := ingest.LoadPreview(ctx, f, lim)
	if err != nil {
		return refused(err)
	}
	if p.stored, err = l.storeOriginal(f); err != nil {
		return refused(err)
	}
	if err := l.writeThumb(f.SHA256, preview); err != nil {
		return refused(err)
	}
	p.done = false
	return p
}

// stage copies path into the library's originals folder under a temporary
// name and fsyncs it. A source that changes while it is copied (size or
// modification time, or another file renamed over its name) is refused.
func (l *Library) stage(path string, lim ingest.Limits) (string, error) {
	src, before, err := ingest.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	if before.Size() == 0 {
		return "", &ingest.Refusal{Path: path, Reason: "is empty (0 bytes)"}
	}
	if lim.MaxBytes > 0 && before.Size() > lim.MaxBytes {
		return "", &ingest.Refusal{Path: path, Reason: fmt.Sprintf("is %.1f MB, over the %.0f MB limit for one receipt",
			float64(before.Size())/(1<<20), float64(lim.MaxBytes)/(1<<20))}
	}
	// fsutil names the copy for this process and computer, so the next Open
	// removes a killed import's partial copy at once (removeStaleCopies).
	tmp, err := fsutil.CreateTemp(filepath.Join(l.dir, "originals", "import"))
	if err != nil {
		return "", fmt.Errorf("could not copy into the library: %w", err)
	}
	n, err := io.Copy(tmp, io.LimitReader(src, before.Size()+1))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("could not copy into the library (is the disk full?): %w", err)
	}
	after, err := src.Stat()
	now, perr := os.Stat(path)
	if err != nil || perr != nil || n != before.Size() || !sameVersion(before, after) || !sameVersion(before, now) || !os.SameFile(before, now) {
		os.Remove(tmp.Name())
		return "", &ingest.Refusal{Path: path, Reason: "changed while it was being imported: import it again once it is saved"}
	}
	return tmp.Name(), nil
}

func sameVersion(a, b os.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

func (l *Library) commit(ctx context.Context, p prepared) ImportResult {
	res := p.res
	if p.done {
		return res
	}
	f := p.file
	at := l.stamp()
	err := l.write(ctx, func(tx *sql.Tx) error {
		r, err := tx.Exec(`INSERT INTO receipts (sha256, original_name, source_path, stored_path, kind, size, pages, status, imported_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			f.SHA256, filepath.Base(res.Path), res.Path, p.stored, string(f.Kind), f.Size, f.Pages, string(StatusNew), at, at)
		if err != nil {
			return err
		}
		res.ID, _ = r.LastInsertId()
		return addHistory(tx, res.ID, at, "system", "status", "", "", string(StatusNew))
	})
	if err != nil {
		// The same file given twice in one batch: the first insert won.
		if id, ok, _ := l.idBySHA(f.SHA256); ok {
			res.Outcome, res.ID = Duplicate, id
			return res
		}
		res.Outcome, res.Reason = Refused, fmt.Sprintf("could not be saved to the library: %v", err)
		return res
	}
	res.Outcome = Added
	return res
}

func (l *Library) idBySHA(sha string) (int64, bool, error) {
	var id int64
	err := l.db.QueryRow(`SELECT id FROM receipts WHERE sha256 = ?`, sha).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// storeOriginal moves a staged copy (f.Path) to originals/ab/<sha><ext> and
// fsyncs the folder. It returns the path relative to the library folder.
func (l *Library) storeOriginal(f ingest.File) (string, error) {
	rel := filepath.Join("originals", f.SHA256[:2], f.SHA256+f.Kind.Ext())
	dst := filepath.Join(l.dir, rel)
	if st, err := os.Stat(dst); err == nil && st.Size() == f.Size {
		return rel, nil // left by an import that died before its insert, or stored by a twin in this batch
	}
	if err := os.MkdirAll(filepath.Dir(dst), privateDir); err != nil {
		return "", err
	}
	if err := os.Rename(f.Path, dst); err != nil {
		return "", fmt.Errorf("could not store the original in the library: %w", err)
	}
	fsutil.SyncDir(filepath.Dir(dst))
	fsutil.SyncDir(filepath.Join(l.dir, "originals"))
	return rel, nil
}

func (l *Library) thumbPath(sha string) string {
	return filepath.Join(l.dir, "thumbs", sha+".jpg")
}

func (l *Library) writeThumb(sha string, img image.Image) error {
	thumb := shrink(img, ThumbSize)
	// Each writer has its own temporary name: the same content twice in a
	// batch makes the same thumbnail twice, at the same time.
	return fsutil.WriteRebuildable(l.thumbPath(sha), func(w io.Writer) error {
		return jpeg.Encode(w, thumb, &jpeg.Options{Quality: 82})
	})
}

// Thumbnail returns the path of a receipt's thumbnail JPEG.
func (l *Library) Thumbnail(rec Record) string { return l.thumbPath(rec.SHA256) }

// OriginalPath returns the absolute path of a receipt's stored original.
func (l *Library) OriginalPath(rec Record) string { return filepath.Join(l.dir, rec.StoredPath) }

// File describes the stored original for ingest, to load its pages.
func (l *Library) File(rec Record) ingest.File {
	return ingest.File{Path: l.OriginalPath(rec), Size: rec.Size, SHA256: rec.SHA256, Kind: ingest.Kind(rec.Kind), Pages: rec.Pages}
}
