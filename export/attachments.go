package export

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-app/shoebox/internal/fsutil"
)

// attachmentName is the name an original gets in the zip: the row's
// reference and the original's extension (SB-12.jpg).
func attachmentName(c *Coded) string {
	return c.Reference() + strings.ToLower(filepath.Ext(c.Original))
}

// writeAttachments writes the originals of rows into a zip at path,
// atomically. Originals are images and PDFs that are compressed already,
// so they are stored, not deflated again.
func writeAttachments(path string, rows []Coded) error {
	return fsutil.WriteExport(path, func(w io.Writer) error {
		zw := zip.NewWriter(w)
		seen := map[string]bool{}
		for i := range rows {
			c := &rows[i]
			if c.Original == "" {
				continue
			}
			name := attachmentName(c)
			if seen[name] {
				continue // the same receipt twice
			}
			seen[name] = true
			if err := addFile(zw, name, c.Original); err != nil {
				return err
			}
		}
		return zw.Close()
	})
}

func addFile(zw *zip.Writer, name, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("cannot read the original %s: %w", src, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	h, err := zip.FileInfoHeader(fi)
	if err != nil {
		return err
	}
	h.Name, h.Method = name, zip.Store
	dst, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, f)
	return err
}
