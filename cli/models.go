package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/models"
	"github.com/shoebox-app/shoebox/models/gguf"
)

func init() {
	register("models", "list, verify and download vision models: models list|verify FILE|download ID|path", runModels)
}

// modelsDir is where downloads go: $SHOEBOX_MODELS, else <data folder>/models.
func modelsDir() (string, error) { return models.DownloadDir(library.DefaultDir()) }

func runModels(env Env, args []string) int {
	fs, _ := newFlags(env, "models", "list|verify FILE [--mmproj FILE]|download ID[:VARIANT]|path|refresh [-o FILE]")
	mmproj := fs.String("mmproj", "", "with verify: also check this projector file")
	hub := fs.String("hub", "https://huggingface.co", "with refresh: the model hub to read file lists from")
	out := fs.String("o", "assets/models/catalogue.json", "with refresh: where to write the updated catalogue")
	simulate := fs.String("simulate", "", "with list: show fit for the machine described in this JSON file (as shoebox gpus --simulate) instead of this one")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	verb := "list"
	if fs.NArg() > 0 {
		verb = fs.Arg(0)
	}
	dir, err := modelsDir()
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	cat, err := models.Catalogue()
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	switch verb {
	case "path":
		fmt.Fprintln(env.Stdout, dir)
		return 0
	case "list":
		m := hw.DiscoverHere()
		if *simulate != "" {
			if err := readJSON(*simulate, &m); err != nil {
				fmt.Fprintf(env.Stderr, "shoebox: %s: %v\n", *simulate, err)
				return 2
			}
		}
		printCatalogue(env.Stdout, cat, m)
		for _, f := range append(models.FindOllama(models.OllamaDir()), models.FindInFolder(dir)...) {
			fmt.Fprintf(env.Stdout, "found (%s): %s\n  model %s\n  projector %s\n", f.Where, f.Name, f.Model, f.Projector)
		}
		fmt.Fprintf(env.Stdout, "downloads go to %s\n", dir)
		return 0
	case "verify":
		if fs.NArg() < 2 {
			fs.Usage()
			return 2
		}
		code := 0
		var headers []*gguf.File
		files := append([]string{fs.Arg(1)}, nonEmpty(*mmproj)...)
		for _, p := range files {
			ref := models.RefByName(cat, filepath.Base(p))
			v, err := models.Verify(p, ref, models.OpenHashCache(filepath.Join(dir, "verified.json")))
			if err != nil {
				fmt.Fprintln(env.Stderr, "shoebox:", err)
				code = 1
				continue
			}
			headers = append(headers, v.Header)
			fmt.Fprintf(env.Stdout, "%s: OK (%d tensors, %s)\n", p, len(v.Header.Tensors), models.HumanSize(v.Size))
			for _, w := range v.Warnings {
				fmt.Fprintln(env.Stdout, "  warning:", w)
			}
		}
		// Each file sound is not enough: the projector must fit the model.
		if len(files) == 2 && len(headers) == 2 {
			if err := models.CheckPair(files[0], headers[0], files[1], headers[1]); err != nil {
				fmt.Fprintln(env.Stderr, "shoebox:", err)
				return 1
			}
			fmt.Fprintf(env.Stdout, "%s fits %s\n", filepath.Base(files[1]), filepath.Base(files[0]))
		}
		return code
	case "download":
		if fs.NArg() < 2 {
			fs.Usage()
			return 2
		}
		_, v, err := models.Find(cat, fs.Arg(1))
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		ctx, stop := interruptible()
		defer stop()
		for _, ref := range []models.FileRef{v.Model, v.Projector} {
			path, err := models.Download(ctx, nil, ref, dir, func(p models.DownloadProgress) {
				total := "?"
				if p.Total > 0 {
					total = models.HumanSize(p.Total)
				}
				fmt.Fprintf(env.Stderr, "\r%s: %s of %s  %s/s  ETA %s   ", ref.Name, models.HumanSize(p.Done), total, models.HumanSize(int64(p.BytesPerSec)), p.ETA.Round(1e9))
			})
			fmt.Fprintln(env.Stderr)
			if err != nil {
				fmt.Fprintln(env.Stderr, "shoebox:", err)
				return 1
			}
			fmt.Fprintln(env.Stdout, "downloaded", path)
		}
		return 0
	case "refresh":
		// For maintainers with network: record exact sizes and hashes.
		ctx, stop := interruptible()
		defer stop()
		changed, problems, err := models.RefreshFromHub(ctx, nil, cat, *hub)
		for _, p := range problems {
			fmt.Fprintln(env.Stderr, "shoebox:", p)
		}
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		data, _ := json.MarshalIndent(cat, "", "  ")
		if err := fsutil.WriteAtomic(*out, func(w io.Writer) error { _, err := w.Write(append(data, '\n')); return err }); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		fmt.Fprintf(env.Stdout, "%d files updated; catalogue written to %s\n", changed, *out)
		return 0
	}
	fmt.Fprintf(env.Stderr, "shoebox: models %s: use list, verify FILE, download ID, path or refresh\n", verb)
	return 2
}

// printCatalogue lists every catalogue variant with its size, the memory
// the planner estimates and how it would run on m, then what each model is
// good at and the default recommendation for m.
func printCatalogue(w io.Writer, cat []models.Entry, m hw.Machine) {
	rec, recPlan := models.Recommend(cat, m)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tVARIANT\tSIZE\tMEMORY NEED\tON THIS MACHINE\tLICENCE")
	for _, e := range cat {
		for _, v := range e.Variants {
			size, need, fit := "not recorded", "—", "unknown until the file size is recorded"
			mb, pb, estimated := e.VariantBytes(v)
			if mb > 0 {
				p := hw.MakePlan(hw.Request{Machine: m, Model: e.Facts(v)})
				approx := ""
				if estimated {
					approx = "~"
				}
				size = fmt.Sprintf("%s%.1f GB", approx, float64(mb+pb)/1e9)
				need = fmt.Sprintf("%s%.1f GB", approx, float64(sum(p.EstimateMiB)+p.CPUMiB)/1024)
				fit = p.Summary(m) + ", " + p.SpeedText()
				if e.ID+":"+v.Name == rec {
					fit += "  ← recommended"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.ID, v.Name, size, need, fit, e.Licence)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "~: estimated from the parameter count; the file sizes are not yet recorded (shoebox models refresh records them).")
	fmt.Fprintln(w)
	for _, e := range cat {
		fmt.Fprintf(w, "%s: %s\n", e.ID, e.About)
	}
	if rec != "" {
		fmt.Fprintf(w, "\nRecommended here: %s (%s): the best reader whose plan fits wholly on one GPU, from the planner's memory estimate.\n", rec, recPlan.Summary(m))
	}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func sum(xs []uint64) uint64 {
	var t uint64
	for _, x := range xs {
		t += x
	}
	return t
}
