package inference

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/shoebox-app/shoebox/receipt"
)

// WriteWords writes a reader's words as text, one word a row: its line,
// page, box (x y w h), confidence and text, tab-separated, and where the
// reader gave second choices, a ninth column of them ("3:I:0.34 5:M:0.12",
// index in runes, letter, probability). It is the form
// `eval --dump` writes and the rules' golden tests read, so a reading can be
// replayed through the rules without the image or the reader.
func WriteWords(w io.Writer, words []Word) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# line\tpage\tx\ty\tw\th\tconf\ttext")
	for _, wd := range words {
		text := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(wd.Text)
		fmt.Fprintf(bw, "%d\t%d\t%d\t%d\t%d\t%d\t%.4f\t%s", wd.Line, wd.Box.Page, wd.Box.X, wd.Box.Y, wd.Box.W, wd.Box.H, wd.Conf, text)
		for i, a := range wd.Alts {
			sep := " "
			if i == 0 {
				sep = "\t"
			}
			fmt.Fprintf(bw, "%s%d:%s:%.4f", sep, a.At, a.Text, a.P)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// ReadWords reads what WriteWords wrote; rows starting with # are comments.
func ReadWords(r io.Reader) ([]Word, error) {
	var words []Word
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		row := sc.Text()
		if row == "" || strings.HasPrefix(row, "#") {
			continue
		}
		cols := strings.SplitN(row, "\t", 9)
		if len(cols) < 8 {
			return nil, fmt.Errorf("row %d: want 8 or 9 tab-separated columns, got %d", n, len(cols))
		}
		var ints [6]int
		for i := range ints {
			v, err := strconv.Atoi(cols[i])
			if err != nil {
				return nil, fmt.Errorf("row %d, column %d: %w", n, i+1, err)
			}
			ints[i] = v
		}
		conf, err := strconv.ParseFloat(cols[6], 64)
		if err != nil {
			return nil, fmt.Errorf("row %d, confidence: %w", n, err)
		}
		wd := Word{
			Text: cols[7], Conf: conf, Line: ints[0],
			Box: receipt.Box{Page: ints[1], X: ints[2], Y: ints[3], W: ints[4], H: ints[5]},
		}
		if len(cols) == 9 {
			for _, f := range strings.Fields(cols[8]) {
				parts := strings.Split(f, ":")
				if len(parts) != 3 {
					return nil, fmt.Errorf("row %d: second choice %q is not index:letter:probability", n, f)
				}
				at, err1 := strconv.Atoi(parts[0])
				p, err2 := strconv.ParseFloat(parts[2], 64)
				if err := errors.Join(err1, err2); err != nil {
					return nil, fmt.Errorf("row %d, second choice %q: %w", n, f, err)
				}
				wd.Alts = append(wd.Alts, Alt{At: at, Text: parts[1], P: p})
			}
		}
		words = append(words, wd)
	}
	return words, sc.Err()
}
