package ingest

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/shoebox-app/shoebox/einvoice"
)

// Kind is a supported file type, as its MIME type.
type Kind string

// The kinds Shoebox opens.
const (
	JPEG Kind = "image/jpeg"
	PNG  Kind = "image/png"
	WebP Kind = "image/webp"
	TIFF Kind = "image/tiff"
	BMP  Kind = "image/bmp"
	HEIC Kind = "image/heic"
	PDF  Kind = "application/pdf"
	// XML is a bare e-invoice: UN/CEFACT CII or OASIS UBL.
	XML Kind = "application/xml"
)

// Ext is the file extension originals of this kind are stored with.
func (k Kind) Ext() string {
	switch k {
	case JPEG:
		return ".jpg"
	case PNG:
		return ".png"
	case WebP:
		return ".webp"
	case TIFF:
		return ".tif"
	case BMP:
		return ".bmp"
	case HEIC:
		return ".heic"
	case PDF:
		return ".pdf"
	case XML:
		return ".xml"
	}
	return ""
}

// ErrUnsupported is wrapped by Sniff's error for content of no supported type.
var ErrUnsupported = errors.New("unsupported file type")

// Sniff tells a file's kind from its first bytes (at least 16), never from
// its name: a text file renamed .pdf is refused.
func Sniff(head []byte) (Kind, error) {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG, nil
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, nil
	case len(head) >= 12 && bytes.Equal(head[:4], []byte("RIFF")) && bytes.Equal(head[8:12], []byte("WEBP")):
		return WebP, nil
	case bytes.HasPrefix(head, []byte("II*\x00")) || bytes.HasPrefix(head, []byte("MM\x00*")):
		return TIFF, nil
	case bytes.HasPrefix(head, []byte("BM")) && len(head) >= 14:
		return BMP, nil
	case len(head) >= 12 && bytes.Equal(head[4:8], []byte("ftyp")) && isHEIFBrand(head[8:12]):
		return HEIC, nil
	}
	// PDF readers accept the header anywhere in the first 1024 bytes.
	if i := bytes.Index(head, []byte("%PDF-")); i >= 0 && i < 1024 {
		return PDF, nil
	}
	if einvoice.LooksLikeXML(head) {
		return XML, nil
	}
	return "", fmt.Errorf("%w: not a JPEG, PNG, WebP, TIFF, BMP, HEIC, PDF or e-invoice XML file", ErrUnsupported)
}

func isHEIFBrand(b []byte) bool {
	switch string(b) {
	case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif":
		return true
	}
	return false
}
