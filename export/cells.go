package export

import (
	"encoding/csv"
	"io"
	"strings"
)

// stripControls removes control characters from untrusted text: C0 codes
// other than tab, CR and LF (ESC, BEL, NUL …), DEL and the C1 codes (the
// 8-bit CSI among them). A server's or a file's text carried ESC and BEL
// into the CSV (issue 38 item 13), where a terminal that shows the file
// runs them as escape sequences and an importer may stop at them.
func stripControls(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, s)
}

func isControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || (r >= 0x7f && r <= 0x9f)
}

// cellWriter is a csv.Writer that cleans every field it writes: every CSV
// export goes through one, so no field escapes the cleaning.
type cellWriter struct{ *csv.Writer }

func newCellWriter(w io.Writer) cellWriter { return cellWriter{csv.NewWriter(w)} }

func (w cellWriter) Write(record []string) error {
	clean := make([]string, len(record))
	for i, f := range record {
		clean[i] = stripControls(f)
	}
	return w.Writer.Write(clean)
}
