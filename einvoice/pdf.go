package einvoice

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The names Factur-X, ZUGFeRD and XRechnung give the attached XML, best first.
var invoiceNames = []string{"factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml"}

// IsPDF reports whether data starts a PDF (the header may sit anywhere in
// the first kilobyte).
func IsPDF(data []byte) bool {
	head := data[:min(len(data), 1024)]
	return bytes.Contains(head, []byte("%PDF-"))
}

var (
	reObj      = regexp.MustCompile(`(\d+)\s+(\d+)\s+obj\b`)
	reStream   = regexp.MustCompile(`stream\r?\n`)
	reEFRef    = regexp.MustCompile(`/EF\s*<<[^>]*?/(?:UF|F)\s+(\d+)\s+\d+\s+R`)
	reFileName = regexp.MustCompile(`/(?:UF|F)\s*\(([^)]{1,200})\)`)

	// reDeclared finds a PDF's word that it is an e-invoice: the XMP
	// extension schemas and attachment names of Factur-X, ZUGFeRD,
	// XRechnung and Order-X.
	reDeclared = regexp.MustCompile(`(?i)factur-x|zugferd|xrechnung|order-x`)

	reInvoiceRoot = regexp.MustCompile(`<([A-Za-z_][\w.-]*:)?(CrossIndustryInvoice|CrossIndustryDocument|Invoice|CreditNote)[\s>]`)
)

// embedded is one stream of the PDF that may be an attached file.
type embedded struct {
	obj     int
	name    string // from the file specification, when it could be found
	typed   bool   // its dictionary says /Type /EmbeddedFile
	dict    string
	payload []byte // raw, still encoded
}

// FromPDF finds the invoice XML a PDF/A-3 carries in its EmbeddedFiles, in
// pure Go: it reads the file's streams, decodes the attached ones and picks
// the one whose root is a CII or UBL invoice, preferring the names the
// standards give it. It returns the XML and the attachment's name.
func FromPDF(data []byte) ([]byte, string, error) {
	if !IsPDF(data) {
		return nil, "", fmt.Errorf("not a PDF")
	}
	cands := pdfStreams(data)
	names := fileNames(data)
	for i := range cands {
		cands[i].name = names[cands[i].obj]
	}
	rank := func(e embedded) int {
		n := strings.ToLower(e.name)
		for i, want := range invoiceNames {
			if n == want {
				return i
			}
		}
		switch {
		case strings.HasSuffix(n, ".xml"):
			return len(invoiceNames)
		case e.typed:
			return len(invoiceNames) + 1
		}
		return len(invoiceNames) + 2
	}
	sort.SliceStable(cands, func(i, j int) bool { return rank(cands[i]) < rank(cands[j]) })
	declared := reDeclared.Match(data)
	var lastErr, damaged error
	for _, c := range cands {
		// The invoice's own attachment: named as the standards name it,
		// or an XML (or unnamed) embedded file of a PDF that says it is
		// a Factur-X, ZUGFeRD or XRechnung invoice.
		n := strings.ToLower(c.name)
		invoice := rank(c) < len(invoiceNames) || declared && c.typed && (n == "" || strings.HasSuffix(n, ".xml"))
		name := c.name
		if name == "" {
			name = "attached XML"
		}
		x, err := decodeStream(c)
		if err != nil {
			lastErr = err
			if invoice && damaged == nil {
				damaged = fmt.Errorf("%s: %w", name, err)
			}
			continue
		}
		if !LooksLikeXML(x) || !invoiceRoot(x) {
			if invoice && damaged == nil {
				damaged = fmt.Errorf("%s is not invoice XML (it begins %q)", name, head(x, 24))
			}
			continue
		}
		return x, name, nil
	}
	if bytes.Contains(data, []byte("/Encrypt")) {
		return nil, "", fmt.Errorf("%w (the PDF is encrypted, so its attachments cannot be read)", ErrNoInvoiceInPDF)
	}
	if damaged != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrDamaged, damaged)
	}
	if lastErr != nil {
		return nil, "", fmt.Errorf("%w (an attachment could not be decoded: %w)", ErrNoInvoiceInPDF, lastErr)
	}
	return nil, "", ErrNoInvoiceInPDF
}

// invoiceRoot tells from the first kilobytes whether XML is rooted in an invoice element.
func invoiceRoot(x []byte) bool {
	head := x[:min(len(x), 64<<10)]
	return reInvoiceRoot.Match(head)
}

// pdfStreams lists the streams that can hold an attachment: embedded-file
// streams, and untyped streams that are not images, fonts or page content
// (/Type is optional on embedded files).
func pdfStreams(data []byte) []embedded {
	var out []embedded
	objs := reObj.FindAllSubmatchIndex(data, -1)
	for k, m := range objs {
		end := len(data)
		if k+1 < len(objs) {
			end = objs[k+1][0]
		}
		body := data[m[1]:end]
		s := reStream.FindIndex(body)
		if s == nil {
			continue
		}
		dict := string(body[:s[0]])
		if !strings.Contains(dict, "/EmbeddedFile") && (strings.Contains(dict, "/Image") || strings.Contains(dict, "/Font") ||
			strings.Contains(dict, "/Length1") || strings.Contains(dict, "/ObjStm") || strings.Contains(dict, "/XRef") ||
			strings.Contains(dict, "/Metadata") || strings.Contains(dict, "/XML") && strings.Contains(dict, "/Metadata")) {
			continue
		}
		payload := body[s[1]:]
		if e := bytes.LastIndex(payload, []byte("endstream")); e >= 0 {
			payload = payload[:e]
		}
		obj, _ := strconv.Atoi(string(data[m[2]:m[3]]))
		out = append(out, embedded{obj: obj, typed: strings.Contains(dict, "/EmbeddedFile"), dict: dict, payload: payload})
	}
	return out
}

// fileNames maps embedded-file stream objects to the names their file
// specifications give, where those specifications are not compressed.
func fileNames(data []byte) map[int]string {
	out := map[int]string{}
	for _, m := range reEFRef.FindAllSubmatchIndex(data, -1) {
		obj, _ := strconv.Atoi(string(data[m[2]:m[3]]))
		lo, hi := max(0, m[0]-600), min(len(data), m[1]+600)
		if n := reFileName.FindSubmatch(data[lo:hi]); n != nil {
			out[obj] = string(n[1])
		}
	}
	return out
}

// decodeStream undoes the stream's filter (none or FlateDecode), reading at
// most MaxXMLBytes+1 so a compression bomb stops early.
func decodeStream(e embedded) ([]byte, error) {
	switch {
	case strings.Contains(e.dict, "/FlateDecode"):
		zr, err := zlib.NewReader(bytes.NewReader(e.payload))
		if err != nil {
			return nil, fmt.Errorf("attachment %d: %w", e.obj, err)
		}
		defer zr.Close()
		out, err := io.ReadAll(io.LimitReader(zr, MaxXMLBytes+1))
		if len(out) > MaxXMLBytes {
			return nil, fmt.Errorf("%w: attachment %d unpacks to over %d MB", ErrHostile, e.obj, MaxXMLBytes>>20)
		}
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return out, fmt.Errorf("attachment %d: %w", e.obj, err)
		}
		return out, nil
	case strings.Contains(e.dict, "/Filter"):
		return nil, fmt.Errorf("attachment %d uses a filter Shoebox does not decode", e.obj)
	}
	return bytes.TrimRight(e.payload, "\r\n"), nil
}

// head is the first n bytes of b as text, for messages.
func head(b []byte, n int) string {
	return strings.ToValidUTF8(string(b[:min(len(b), n)]), "?")
}
