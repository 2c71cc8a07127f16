package eval

import (
	"math"
	"testing"
)

func outcome(name string, conf float64, right, ready bool) Outcome {
	f := FieldOutcome{Value: "x", Correct: right, Confidence: conf}
	return Outcome{Receipt: name, Ready: ready, Fields: map[string]FieldOutcome{"total": f, "date": f}}
}

func TestCalibrate(t *testing.T) {
	var outs []Outcome
	// Ten at 0.9, nine right: calibrated. Ten at 0.55, three right: 0.25 off.
	for i := 0; i < 10; i++ {
		outs = append(outs, outcome("a", 0.9, i < 9, false), outcome("b", 0.55, i < 3, false))
	}
	outs = append(outs, Outcome{Receipt: "unanswered", Fields: map[string]FieldOutcome{"total": {}}})
	c := Calibrate("total", outs)
	if c.Answered != 20 || len(c.Buckets) != 2 {
		t.Fatalf("answered %d in %d bands, want 20 in 2", c.Answered, len(c.Buckets))
	}
	if want := 0.5 * 0.25; math.Abs(c.ECE-want) > 1e-9 {
		t.Errorf("ECE %.4f, want %.4f", c.ECE, want)
	}
	if math.Abs(c.Accuracy-0.6) > 1e-9 {
		t.Errorf("accuracy %.3f, want 0.6", c.Accuracy)
	}
}

func TestReadiness(t *testing.T) {
	outs := []Outcome{outcome("1", 0.99, true, true), outcome("2", 0.99, false, true), outcome("3", 0.5, false, false), outcome("4", 0.5, true, false)}
	r := ReadinessOf(outs)
	if r.Ready != 2 || r.ReadyRight != 1 || r.ReadyRate != 0.5 || r.RightShare != 0.5 || len(r.WrongReady) != 1 || r.WrongReady[0] != "2" {
		t.Errorf("%+v", r)
	}
	if rows := EvidenceTable(outs); len(rows) != 2 { // total and date, both "0"
		t.Errorf("evidence rows %+v", rows)
	}
}
