package eval

import (
	"math"
	"sort"

	"github.com/shoebox-app/shoebox/receipt"
)

// Outcome is what a bookkeeper would see of one receipt: each scored
// field's value, confidence and evidence, whether it is right, and the
// status the receipt gets (ready to confirm, or why not).
type Outcome struct {
	Receipt string                  `json:"receipt"`
	Ready   bool                    `json:"ready"`
	Reasons []string                `json:"reasons,omitempty"`
	Fields  map[string]FieldOutcome `json:"fields"`
}

// FieldOutcome is one field of an Outcome.
type FieldOutcome struct {
	Value      string            `json:"value"`
	Want       string            `json:"want"`
	Correct    bool              `json:"correct"`
	Confidence float64           `json:"confidence"`
	Support    []receipt.Support `json:"support,omitempty"`
	Doubt      string            `json:"doubt,omitempty"`
}

// fieldPaths maps the scored fields to the receipt's fields.
var fieldPaths = map[string]string{"company": "supplier_name", "date": "date", "address": "supplier_address", "total": "total"}

// NewOutcome scores one receipt and gives it the status the library would
// (receipt.Unready over the findings).
func NewOutcome(name string, scores map[string]FieldScore, r *receipt.Receipt, findings []receipt.Finding) Outcome {
	o := Outcome{Receipt: name, Reasons: receipt.Unready(*r, findings), Fields: map[string]FieldOutcome{}}
	o.Ready = len(o.Reasons) == 0
	for name, s := range scores {
		f := FieldOutcome{Value: s.Got, Want: s.Want, Correct: s.Correct}
		if path, ok := fieldPaths[name]; ok {
			_, f.Confidence, _, _, _ = receipt.Meta(r, path)
		}
		switch name {
		case "total":
			f.Support, f.Doubt = r.Total.Support, r.Total.Doubt
		case "date":
			f.Support, f.Doubt = r.Date.Support, r.Date.Doubt
		}
		o.Fields[name] = f
	}
	return o
}

// Bucket is one confidence band of a calibration table.
type Bucket struct {
	From, To       float64
	N              int
	MeanConfidence float64
	Accuracy       float64
}

// Calibration says how well a field's confidence predicts that it is right:
// among the receipts where the field was answered, confidence bands against
// accuracy, and the expected calibration error (the bands' gaps between
// mean confidence and accuracy, weighted by their share of answers).
type Calibration struct {
	Field    string   `json:"field"`
	Answered int      `json:"answered"`
	Accuracy float64  `json:"accuracy_when_answered"`
	Buckets  []Bucket `json:"buckets"`
	ECE      float64  `json:"expected_calibration_error"`
}

// Calibrate builds a field's calibration table in bands of 0.1.
func Calibrate(field string, outs []Outcome) Calibration {
	c := Calibration{Field: field}
	var bands [10]struct {
		n, right int
		conf     float64
	}
	for _, o := range outs {
		f, ok := o.Fields[field]
		if !ok || f.Value == "" {
			continue
		}
		c.Answered++
		b := min(9, int(math.Floor(f.Confidence*10)))
		bands[b].n++
		bands[b].conf += f.Confidence
		if f.Correct {
			bands[b].right++
			c.Accuracy++
		}
	}
	if c.Answered == 0 {
		return c
	}
	c.Accuracy /= float64(c.Answered)
	for i, b := range bands {
		if b.n == 0 {
			continue
		}
		bk := Bucket{From: float64(i) / 10, To: float64(i+1) / 10, N: b.n, MeanConfidence: b.conf / float64(b.n), Accuracy: float64(b.right) / float64(b.n)}
		c.Buckets = append(c.Buckets, bk)
		c.ECE += float64(b.n) / float64(c.Answered) * math.Abs(bk.Accuracy-bk.MeanConfidence)
	}
	return c
}

// Readiness is what the status means to a bookkeeper: how many receipts
// are ready to confirm, and how many of those are right: total and date,
// and the supplier and currency where the set labels them.
type Readiness struct {
	Receipts   int      `json:"receipts"`
	Ready      int      `json:"ready"`
	ReadyRate  float64  `json:"ready_rate"`
	ReadyRight int      `json:"ready_right"`
	RightShare float64  `json:"ready_right_share"`
	WrongReady []string `json:"wrong_but_ready,omitempty"`
}

// ReadinessOf counts ready receipts and the share of them that are right.
func ReadinessOf(outs []Outcome) Readiness {
	r := Readiness{Receipts: len(outs)}
	for _, o := range outs {
		if !o.Ready {
			continue
		}
		r.Ready++
		if o.right() {
			r.ReadyRight++
		} else {
			r.WrongReady = append(r.WrongReady, o.Receipt)
		}
	}
	if r.Receipts > 0 {
		r.ReadyRate = float64(r.Ready) / float64(r.Receipts)
	}
	if r.Ready > 0 {
		r.RightShare = float64(r.ReadyRight) / float64(r.Ready)
	}
	return r
}

// EvidenceRow is how often a field was right with one shape of evidence:
// a doubt, or a number of kinds of support. The rules' calibration table
// (inference/fields) is fitted from these rows.
type EvidenceRow struct {
	Field    string  `json:"field"`
	Evidence string  `json:"evidence"` // "doubt", "0", "1", "2", "3+"
	N        int     `json:"n"`
	Accuracy float64 `json:"accuracy"`
}

// EvidenceTable groups answered total and date fields by their evidence.
func EvidenceTable(outs []Outcome) []EvidenceRow {
	type key struct{ field, ev string }
	n, right := map[key]int{}, map[key]int{}
	for _, o := range outs {
		for _, field := range []string{"total", "date"} {
			f, ok := o.Fields[field]
			if !ok || f.Value == "" {
				continue
			}
			k := key{field, evidenceShape(f)}
			n[k]++
			if f.Correct {
				right[k]++
			}
		}
	}
	var rows []EvidenceRow
	for k, c := range n {
		rows = append(rows, EvidenceRow{k.field, k.ev, c, float64(right[k]) / float64(c)})
	}
	order := map[string]int{"doubt": 0, "0": 1, "1": 2, "2": 3, "3+": 4}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Field != rows[j].Field {
			return rows[i].Field > rows[j].Field // total, then date
		}
		return order[rows[i].Evidence] < order[rows[j].Evidence]
	})
	return rows
}

func evidenceShape(f FieldOutcome) string {
	if f.Doubt != "" {
		return "doubt"
	}
	switch n := receipt.SupportKinds(f.Support); {
	case n >= 3:
		return "3+"
	default:
		return string(rune('0' + n))
	}
}

// right says whether a ready receipt is right in every field that
// confirming it vouches for: total, date, and the supplier and currency
// where labelled.
func (o Outcome) right() bool {
	if !o.Fields["total"].Correct || !o.Fields["date"].Correct {
		return false
	}
	for _, f := range []string{"company", "currency"} {
		if x, ok := o.Fields[f]; ok && x.Want != "" && !x.Correct {
			return false
		}
	}
	return true
}
