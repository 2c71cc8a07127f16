package ppocr

import (
	"context"
	"testing"
)

func TestReadsADevReceipt(t *testing.T) {
	r := testReader(t)
	pg := loadPage(t, sroie(t, "sroie-dev", "000.jpg"))
	words, tm, err := r.Read(context.Background(), pg.Image, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := -1
	var text string
	for _, w := range words {
		if w.Line != line {
			if line >= 0 {
				t.Log(text)
			}
			line, text = w.Line, ""
		}
		text += w.Text + " "
	}
	t.Log(text)
	t.Logf("%+v", tm)
}
