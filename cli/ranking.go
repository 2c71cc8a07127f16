package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/receipt"
)

func init() {
	register("ranking", "fit the supplier-line ranking on labelled receipts' readings, or compare it with the rules: ranking fit|compare COUNTRY,LABELS,DUMP…", runRanking)
}

// rankedPage is one labelled receipt's candidate lines for the supplier's
// name, the one its label names (-1: none) and the rules' choice.
type rankedPage struct {
	name         string
	cands        []fields.SupplierCandidate
	right, rules int
}

func runRanking(env Env, args []string) int {
	if len(args) == 0 || args[0] != "fit" && args[0] != "compare" {
		fmt.Fprintln(env.Stderr, "Usage: shoebox ranking fit --out FILE SET… | compare [--model FILE] SET…")
		fmt.Fprintln(env.Stderr, "  SET is COUNTRY,LABELS,DUMP: a country's rules, a labelled folder (as for eval) and the words `shoebox eval --dump DUMP` wrote for it (commas, as a Windows path holds a colon: LABELS holds none)")
		return 2
	}
	fs := flag.NewFlagSet("ranking "+args[0], flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	out := fs.String("out", "", "with fit: write the ranking to FILE (inference/fields/ranking/supplier.json is the one the rules read)")
	l2 := fs.Float64("l2", 0.01, "with fit: the penalty on each weight's square")
	model := fs.String("model", "", "with compare: the ranking to compare (default: the one built in)")
	show := fs.Bool("show", false, "with compare: list the receipts where the ranking and the rules choose different lines, or the rules the wrong one")
	cross := fs.Bool("cross", false, "with compare: measure each set with a ranking fitted on the other sets (--l2 applies), not --model")
	if err := parseArgs(fs, args[1:]); err != nil {
		return 2
	}
	var sets [][]rankedPage
	for _, spec := range fs.Args() {
		pages, err := rankedPages(spec)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		sets = append(sets, pages)
	}
	if len(sets) == 0 {
		fmt.Fprintln(env.Stderr, "shoebox: name at least one COUNTRY,LABELS,DUMP set")
		return 2
	}
	if args[0] == "fit" {
		if *out == "" {
			fmt.Fprintln(env.Stderr, "shoebox: fit needs --out FILE")
			return 2
		}
		var cands [][]fields.SupplierCandidate
		var right []int
		for _, pages := range sets {
			for _, p := range pages {
				cands, right = append(cands, p.cands), append(right, p.right)
			}
		}
		m := fields.FitRanking(cands, right, *l2)
		var names []string
		for _, spec := range fs.Args() {
			names = append(names, setName(spec))
		}
		m.Fitted = fmt.Sprintf("shoebox ranking fit --l2 %g on %s", *l2, strings.Join(names, ", "))
		// Each set measured by the ranking fitted on the others.
		if len(sets) > 1 {
			m.Measured = []string{compareHeader}
			for i := range sets {
				m.Measured = append(m.Measured, compareRanking(io.Discard, setName(fs.Arg(i)), sets[i], crossFitted(sets, i, *l2), false))
			}
		}
		data, err := json.MarshalIndent(m, "", " ")
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox: the fitted ranking cannot be written:", err)
			return 1
		}
		if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		for k, w := range m.Weights {
			fmt.Fprintf(env.Stdout, "%+7.3f  %s\n", w, m.Features[k])
		}
		return 0
	}
	if *cross && len(sets) < 2 {
		fmt.Fprintln(env.Stderr, "shoebox: --cross fits each set on the others: name two sets or more")
		return 2
	}
	var m fields.Ranking
	if !*cross {
		var err error
		if *model != "" {
			var data []byte
			if data, err = os.ReadFile(*model); err == nil {
				m, err = fields.ParseRanking(data)
			}
		} else {
			m, err = fields.SupplierRanking()
		}
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
	}
	fmt.Fprintln(env.Stdout, compareHeader)
	for i, pages := range sets {
		fitted := m
		if *cross {
			fitted = crossFitted(sets, i, *l2)
		}
		compareRanking(env.Stdout, setName(fs.Arg(i)), pages, fitted, *show)
	}
	return 0
}

// compareHeader explains compareRanking's summary lines.
const compareHeader = "set: receipts, those with the name's line known; line chosen right by the rules, by the ranking; the rules' line given a chance under 0.2, 0.3, 0.4 by the ranking: right, wrong"

// compareRanking prints how the ranking and the rules choose the
// supplier's line on a set's pages.
// It returns its summary line.
func compareRanking(w io.Writer, name string, pages []rankedPage, m fields.Ranking, show bool) string {
	var known, rules, ranked int
	var unlikely [3][2]int
	for _, p := range pages {
		if len(p.cands) == 0 {
			continue
		}
		ch := m.Chances(p.cands)
		top := 0
		for k := range ch {
			if ch[k] > ch[top] {
				top = k
			}
		}
		line := func(i int) string {
			if i < 0 {
				return "none"
			}
			return fmt.Sprintf("%q (%.2f)", p.cands[i].Text, ch[i])
		}
		if p.right < 0 {
			if show && p.rules < 0 {
				fmt.Fprintf(w, "  %s: rules none, ranking %s; no line holds the label's name\n", p.name, line(top))
			}
			continue
		}
		known++
		if p.rules == p.right {
			rules++
		}
		if top == p.right {
			ranked++
		}
		for k, below := range []float64{0.2, 0.3, 0.4} {
			if p.rules >= 0 && ch[p.rules] < below {
				if p.rules == p.right {
					unlikely[k][0]++
				} else {
					unlikely[k][1]++
				}
			}
		}
		if show && (top != p.rules || p.rules != p.right) {
			fmt.Fprintf(w, "  %s: rules %s, ranking %s, label's line %s\n", p.name, line(p.rules), line(top), line(p.right))
		}
	}
	sum := fmt.Sprintf("%s: %d, %d; rules %d, ranking %d; unlikely %v", name, len(pages), known, rules, ranked, unlikely)
	fmt.Fprintln(w, sum)
	return sum
}

// crossFitted is the ranking fitted on every set but the held-out one.
func crossFitted(sets [][]rankedPage, heldOut int, l2 float64) fields.Ranking {
	var cands [][]fields.SupplierCandidate
	var right []int
	for j, other := range sets {
		for _, p := range other {
			if j != heldOut {
				cands, right = append(cands, p.cands), append(right, p.right)
			}
		}
	}
	return fields.FitRanking(cands, right, l2)
}

// setName is a set's country and labelled folder's name ("US:receipts-us").
func setName(spec string) string {
	parts := strings.SplitN(spec, ",", 3)
	if len(parts) < 2 {
		return spec
	}
	return parts[0] + ":" + filepath.Base(parts[1])
}

// rankedPages reads a COUNTRY,LABELS,DUMP set's candidates.
func rankedPages(spec string) ([]rankedPage, error) {
	parts := strings.SplitN(spec, ",", 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("%q: want COUNTRY,LABELS,DUMP", spec)
	}
	c, err := receipt.ParseCountry(parts[0])
	if err != nil {
		return nil, err
	}
	loc := receipt.DefaultLocale(c)
	items, err := findLabelled(parts[1])
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(parts[2]); err != nil {
		return nil, err
	}
	var out []rankedPage
	for _, it := range items {
		stem := strings.TrimSuffix(filepath.Base(it.Image), filepath.Ext(it.Image))
		f, err := os.Open(filepath.Join(parts[2], stem+".lines"))
		if errors.Is(err, os.ErrNotExist) {
			continue // a receipt the dump has no reading of
		}
		if err != nil {
			return nil, err
		}
		words, err := inference.ReadWords(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", stem, err)
		}
		cands, rules := fields.SupplierCandidates(fields.GroupLines(words), loc)
		out = append(out, rankedPage{name: stem, cands: cands, right: fields.RightSupplierLine(cands, it.Label.Company), rules: rules})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no readings of the receipts in %s (shoebox eval --dump writes them)", parts[2], parts[1])
	}
	return out, nil
}
