package models

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/shoebox-app/shoebox/internal/fsutil"
)

// DownloadProgress is reported while a file downloads.
type DownloadProgress struct {
	Done, Total int64 // bytes; Total is -1 when unknown
	BytesPerSec float64
	ETA         time.Duration
}

// Download fetches ref into dir. A partial file (<name>.part) is resumed with
// an HTTP Range request, after checking (If-Range) that the server still
// has the same file; the finished file is checked against ref's size and
// SHA-256 before it is renamed into place. progress may be nil.
func Download(ctx context.Context, client *http.Client, ref FileRef, dir string, progress func(DownloadProgress)) (string, error) {
	if client == nil {
		client = http.DefaultClient
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot create the models folder %s: %w", dir, err)
	}
	final := filepath.Join(dir, ref.Name)
	part := final + ".part"
	meta := part + ".etag"
	for attempt := 0; attempt < 2; attempt++ {
		err := fetch(ctx, client, ref, part, meta, progress)
		if errors.Is(err, errRemoteChanged) {
			os.Remove(part)
			os.Remove(meta)
			continue // start again from zero
		}
		if err != nil {
			return "", err
		}
		break
	}
	st, err := os.Stat(part)
	if err != nil {
		return "", err
	}
	if lo, hi, ok := ref.SizeWindow(); ok && (st.Size() < lo || st.Size() > hi) {
		return "", fmt.Errorf("%s: the server sent %s, the catalogue lists %s; the partial file is kept, try again", ref.Name, HumanSize(st.Size()), HumanSize(ref.Bytes()))
	}
	if ref.SHA256 != "" {
		sum, err := hashFile(part)
		if err != nil {
			return "", err
		}
		if sum != ref.SHA256 {
			os.Remove(part)
			os.Remove(meta)
			return "", fmt.Errorf("%w: %s downloaded with SHA-256 %s…, the catalogue lists %s… — the server sent a different file; it was deleted",
				ErrIntegrity, ref.Name, sum[:12], ref.SHA256[:min(12, len(ref.SHA256))])
		}
	}
	if err := os.Rename(part, final); err != nil {
		return "", err
	}
	fsutil.SyncDir(filepath.Dir(final))
	os.Remove(meta)
	return final, nil
}

var errRemoteChanged = errors.New("the file on the server changed")

func fetch(ctx context.Context, client *http.Client, ref FileRef, part, meta string, progress func(DownloadProgress)) error {
	f, err := os.OpenFile(part, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return explainIO(ref.Name, err)
	}
	defer f.Close()
	have, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ref.URL, nil)
	if err != nil {
		return err
	}
	validator, _ := os.ReadFile(meta)
	if have > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(have, 10)+"-")
		if len(validator) > 0 {
			req.Header.Set("If-Range", string(validator))
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		var dns *net.DNSError
		var op *net.OpError
		if errors.As(err, &dns) || errors.As(err, &op) {
			return fmt.Errorf("%s: cannot reach %s — check the internet connection, then try again (the download resumes): %w", ref.Name, req.URL.Host, err)
		}
		return fmt.Errorf("%s: %w", ref.Name, err)
	}
	defer resp.Body.Close()
	switch {
	case have > 0 && resp.StatusCode == http.StatusOK:
		return errRemoteChanged // If-Range failed or ranges are unsupported: the whole file came back
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		return errRemoteChanged
	case resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusPartialContent:
		return fmt.Errorf("%s: the server answered %s", ref.Name, resp.Status)
	}
	// The validator lets a later resume ask for the same file; without it
	// a resume starts again from zero, so failing to save it is not fatal.
	if v := resp.Header.Get("ETag"); v != "" {
		_ = fsutil.WriteBytes(meta, []byte(v))
	} else if v := resp.Header.Get("Last-Modified"); v != "" {
		_ = fsutil.WriteBytes(meta, []byte(v))
	}
	total := int64(-1)
	if resp.ContentLength >= 0 {
		total = have + resp.ContentLength
	}
	start, done := time.Now(), have
	buf := make([]byte, 256<<10)
	last := time.Time{}
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if _, err := f.Write(buf[:n]); err != nil {
				return explainIO(ref.Name, err)
			}
			done += int64(n)
			if progress != nil && time.Since(last) > 200*time.Millisecond {
				last = time.Now()
				rate := float64(done-have) / time.Since(start).Seconds()
				p := DownloadProgress{Done: done, Total: total, BytesPerSec: rate}
				if total > 0 && rate > 0 {
					p.ETA = time.Duration(float64(total-done) / rate * float64(time.Second))
				}
				progress(p)
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return fmt.Errorf("%s: the download stopped at %s (%w) — run it again to resume", ref.Name, HumanSize(done), rerr)
		}
	}
	if progress != nil {
		progress(DownloadProgress{Done: done, Total: total})
	}
	if err := f.Sync(); err != nil {
		return explainIO(ref.Name, err)
	}
	if total > 0 && done < total {
		return fmt.Errorf("%s: the download stopped at %s of %s — run it again to resume", ref.Name, HumanSize(done), HumanSize(total))
	}
	return nil
}

func explainIO(name string, err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("%s: the disk is full — free some space and run the download again (it resumes): %w", name, err)
	}
	return fmt.Errorf("%s: %w", name, err)
}
