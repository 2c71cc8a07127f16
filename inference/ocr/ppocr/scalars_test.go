package ppocr

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The rewritten models read real receipts as the stored ones do: the same
// words, boxes and, to rounding, confidences.
func TestFoldedModelsReadAlike(t *testing.T) {
	d := testDir(t)
	stored, err := New(Options{Dir: d, ModelsAsStored: true})
	if err != nil {
		t.Fatal(err)
	}
	defer stored.Close()
	folded := testReader(t)
	for _, name := range []string{"000.jpg", "026.jpg", "034.jpg"} {
		img := loadPage(t, sroie(t, "sroie-dev", name)).Image
		want, _, err := stored.Read(context.Background(), img, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := folded.Read(context.Background(), img, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d words folded, %d as stored", name, len(got), len(want))
		}
		for i := range want {
			if got[i].Text != want[i].Text || got[i].Box != want[i].Box || math.Abs(got[i].Conf-want[i].Conf) > 1e-3 {
				t.Errorf("%s word %d: folded %q %+v %.4f, as stored %q %+v %.4f", name, i,
					got[i].Text, got[i].Box, got[i].Conf, want[i].Text, want[i].Box, want[i].Conf)
			}
		}
	}
}

// What the rewrite changes in each model, and that it leaves alone what
// it cannot read.
func TestFoldableAffine(t *testing.T) {
	d := testDir(t)
	for _, tc := range []struct {
		model   string
		atLeast int
	}{
		// PP-LCNetV3 blocks: affine pairs after each convolution and after
		// each hard swish, and the hard swishes themselves.
		{DetModel, 100},
		{RecModel, 100},
		{ClsModel, 20}, // MobileNetV3: its hard swishes only
	} {
		data, err := os.ReadFile(filepath.Join(d, tc.model))
		if err != nil {
			t.Fatal(err)
		}
		out, n, err := foldableAffine(data)
		if err != nil {
			t.Fatalf("%s: %v", tc.model, err)
		}
		if n < tc.atLeast || (n == 0) != (len(out) == len(data) && string(out) == string(data)) {
			t.Errorf("%s: %d nodes changed (want at least %d), %d bytes from %d", tc.model, n, tc.atLeast, len(out), len(data))
		}
		t.Logf("%s: %d nodes changed", tc.model, n)
		// A model cut short anywhere comes back as it was, with an error.
		for _, cut := range []int{1, 7, len(data) / 3, len(data) - 5} {
			bad := data[:cut]
			out, n, err := foldableAffine(bad)
			if n != 0 || string(out) != string(bad) {
				t.Errorf("%s cut at %d: %d changed, err %v", tc.model, cut, n, err)
			}
		}
	}
	if out, n, err := foldableAffine([]byte("not a model")); n != 0 || err == nil || string(out) != "not a model" {
		t.Errorf("garbage: %d changed, err %v", n, err)
	}
}

// BenchmarkReadPageAsStored is BenchmarkReadPage with the models as
// stored, without foldableAffine.
func BenchmarkReadPageAsStored(b *testing.B) {
	r, err := New(Options{Dir: testDir(b), ModelsAsStored: true})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	img := loadPage(b, sroie(b, "sroie-dev", "000.jpg")).Image
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := r.Read(context.Background(), img, 0); err != nil {
			b.Fatal(err)
		}
	}
}
