package inference

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/shoebox-app/shoebox/receipt"
)

func TestWordsRoundTrip(t *testing.T) {
	in := []Word{
		{Text: "TOTAL", Conf: 0.93, Line: 3, Box: receipt.Box{X: 10, Y: 200, W: 60, H: 20}},
		{Text: "RM\t9.00", Conf: 0.5, Line: 3, Box: receipt.Box{Page: 1, X: 200, Y: 201, W: 50, H: 20}},
		{Text: "MINL", Conf: 0.8, Line: 4, Box: receipt.Box{X: 10, Y: 230, W: 60, H: 20}, Alts: []Alt{{At: 3, Text: "I", P: 0.34}, {At: 0, Text: "N", P: 0.05}}},
	}
	var b bytes.Buffer
	if err := WriteWords(&b, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadWords(&b)
	if err != nil {
		t.Fatal(err)
	}
	in[1].Text = "RM 9.00" // a tab inside a word cannot survive a tab-separated row
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", out, in)
	}
	if _, err := ReadWords(bytes.NewBufferString("1\t0\tx\t0\t0\t0\t0.5\tA\n")); err == nil {
		t.Fatal("a bad number was accepted")
	}
	if _, err := ReadWords(bytes.NewBufferString("1\t0\t0\t0\t0\t0\t0.5\tA\t0:B\n")); err == nil {
		t.Fatal("a second choice without its probability was accepted")
	}
}
