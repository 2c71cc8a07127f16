package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/models"
	"github.com/shoebox-app/shoebox/receipt"
)

// modelRun is one model of an `eval --models` comparison.
type modelRun struct {
	Ref       string     `json:"model"` // as given: id[:variant] or MODEL.gguf+MMPROJ.gguf
	Model     string     `json:"model_file"`
	Projector string     `json:"projector_file"`
	Plan      string     `json:"plan,omitempty"`
	MemoryGB  float64    `json:"memory_gb,omitempty"` // the planner's estimate, GPUs and CPU
	Error     string     `json:"error,omitempty"`
	Report    evalReport `json:"report"`
}

// modelFiles resolves one --models entry to a model and projector file:
// "MODEL.gguf+MMPROJ.gguf" as they are, a catalogue "id[:variant]" in the
// models folder, downloaded first with consent (ask, unless yes).
func modelFiles(ctx context.Context, env Env, ref, dir string, cat []models.Entry, yes bool, in *bufio.Reader) (string, string, error) {
	if m, p, ok := strings.Cut(ref, "+"); ok {
		for _, f := range []string{m, p} {
			if _, err := os.Stat(f); err != nil {
				return "", "", err
			}
		}
		return m, p, nil
	}
	_, v, err := models.Find(cat, ref)
	if err != nil {
		return "", "", err
	}
	files := []models.FileRef{v.Model, v.Projector}
	var missing []models.FileRef
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f.Name)); err != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		var names []string
		var total int64
		for _, f := range missing {
			names = append(names, f.Name)
			total += f.Bytes()
		}
		size := "size not recorded"
		if total > 0 {
			size = models.HumanSize(total)
		}
		if !yes {
			fmt.Fprintf(env.Stderr, "download %s (%s) into %s? [y/N] ", strings.Join(names, " and "), size, dir)
			answer, _ := in.ReadString('\n')
			if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
				return "", "", fmt.Errorf("not downloaded (answer y, or pass --yes; or give local files as MODEL.gguf+MMPROJ.gguf)")
			}
		}
		for _, f := range missing {
			if _, err := models.Download(ctx, nil, f, dir, nil); err != nil {
				return "", "", fmt.Errorf("could not download %s: %w (without a network, give local files as MODEL.gguf+MMPROJ.gguf)", f.Name, err)
			}
		}
	}
	return filepath.Join(dir, v.Model.Name), filepath.Join(dir, v.Projector.Name), nil
}

// compareModels runs each model on the labelled receipts and prints one
// table: accuracy per field, ready rate, right among ready, receipts per
// minute and memory, so the default model is chosen from numbers.
func compareModels(env Env, refs []string, items []labelled, loc receipt.Locale, yes, asJSON bool, vf vlmFlags) int {
	cat, err := models.Catalogue()
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	dir, err := modelsDir()
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	stdin := env.Stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	in := bufio.NewReader(stdin)
	ctx, stop := interruptible()
	defer stop()
	m := hw.DiscoverHere()
	var runs []modelRun
	for _, ref := range refs {
		run := modelRun{Ref: ref}
		model, proj, err := modelFiles(ctx, env, ref, dir, cat, yes, in)
		if err == nil {
			run.Model, run.Projector = model, proj
			if v, code := startVLM(env, model, proj, loc, *vf.parallel, *vf.maxTokens); v == nil {
				err = fmt.Errorf("the model did not start (exit %d; the reason is above)", code)
			} else {
				p := v.Plan()
				run.Plan = p.Summary(m)
				run.MemoryGB = float64(sum(p.EstimateMiB)+p.CPUMiB) / 1024
				eng := withOCRHints(env, v, loc, *vf.hints)
				run.Report = evaluate(ctx, env, eng, items, loc, "")
				eng.Close()
			}
		}
		if err != nil {
			run.Error = err.Error()
			fmt.Fprintf(env.Stderr, "shoebox: %s: %v\n", ref, err)
		}
		runs = append(runs, run)
		if ctx.Err() != nil {
			break
		}
	}
	if asJSON {
		if code := printJSON(env, runs); code != 0 {
			return code
		}
	} else {
		printComparison(env.Stdout, runs, len(items))
	}
	for _, r := range runs {
		if r.Error == "" {
			return 0
		}
	}
	return 1
}

func printComparison(w io.Writer, runs []modelRun, n int) {
	var fields []string
	for _, r := range runs {
		if r.Error == "" {
			fields = r.Report.Order
			break
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	head := []string{"MODEL"}
	for _, f := range fields {
		head = append(head, strings.ToUpper(f))
	}
	head = append(head, "OVERALL", "READY", "RIGHT/READY", "REC/MIN", "MEMORY", "")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range runs {
		row := []string{r.Ref}
		if r.Error != "" {
			row = append(row, "failed: "+plain.Clip(r.Error, 90))
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
			continue
		}
		for _, f := range fields {
			row = append(row, fmt.Sprintf("%.1f%%", r.Report.Fields[f].Exact*100))
		}
		rd := r.Report.Readiness
		row = append(row, fmt.Sprintf("%.1f%%", r.Report.Overall.Exact*100), fmt.Sprintf("%.1f%%", rd.ReadyRate*100),
			fmt.Sprintf("%.1f%%", rd.RightShare*100), fmt.Sprintf("%.1f", r.Report.PerMinute), fmt.Sprintf("%.1f GB", r.MemoryGB))
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
	fmt.Fprintf(w, "%d receipts each; accuracy is exact match per field; READY is the share ready to confirm, RIGHT/READY how many of those have total and date right; MEMORY the planner's estimate.\n", n)
	for _, r := range runs {
		if r.Plan != "" {
			fmt.Fprintf(w, "%s: %s\n", r.Ref, r.Plan)
		}
	}
}
