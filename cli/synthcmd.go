package cli

import (
	"encoding/csv"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/internal/synth"
	"github.com/shoebox-app/shoebox/packs"
)

func init() {
	register("synth", "write synthetic receipts with their labels (labels.csv) for `shoebox eval`", runSynth)
}

func runSynth(env Env, args []string) int {
	fs, _ := newFlags(env, "synth", "")
	out := fs.String("out", "", "folder to write NNN.png and labels.csv into")
	country := fs.String("country", "AU", "whose receipts: "+strings.Join(synth.Countries, ", ")+"; in their own language and formats: "+strings.Join(synth.PackCountries, ", "))
	n := fs.Int("n", 40, "how many receipts")
	seed := fs.Int64("seed", 1, "the same seed writes the same receipts")
	nItems := fs.Int("items", 0, "purchased lines per receipt (0: 1 to 6 at random)")
	photo := fs.String("photo", "none", "none (clean scans) or phone (tilted, blurred, noisy, dim, in perspective, at random)")
	invoices := fs.Bool("invoices", false, "write printed invoices (PDFs carrying their truth as Factur-X XML, for `shoebox einvoices --printed`) instead of receipts")
	lang := fs.String("lang", "de", "with --invoices: the invoices' language: "+strings.Join(synth.InvoiceLangs, ", ")+"; --photo scan (or phone) writes them as scans: pages of images with no text layer")
	if err := parseArgs(fs, args); err != nil {
		return 2
	}
	if *invoices && *out != "" && *n > 0 {
		return runSynthInvoices(env, *out, *lang, *n, *seed, *photo != "none")
	}
	if *out == "" || *n <= 0 || (*photo != "none" && *photo != "phone" && !(*invoices && *photo == "scan")) {
		fs.Usage()
		return 2
	}
	*country = strings.ToUpper(*country)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	rows := [][]string{{"file", "company", "date", "address", "total", "tax", "items", "layout", "tax_id", "tax_rates", "currency"}}
	rng := rand.New(rand.NewSource(*seed))
	for i := range *n {
		r, err := synth.Generate(*seed*100000+int64(i), *country)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 2
		}
		if *nItems > 0 {
			r = synth.WithItems(r, *nItems, *seed*100000+int64(i))
		}
		img, err := synth.Render(r)
		if err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		if *photo == "phone" {
			img = synth.Degrade(img, synth.PhonePhoto(rng))
		}
		name := fmt.Sprintf("%03d.png", i)
		if err := writePNG(filepath.Join(*out, name), img); err != nil {
			fmt.Fprintln(env.Stderr, "shoebox:", err)
			return 1
		}
		_, tax, total := r.Totals()
		var items []string
		for _, it := range r.Items {
			items = append(items, centsText(int64(it.Qty)*it.UnitCents))
		}
		taxID := r.TaxID
		if r.Local != nil {
			taxID = r.TaxIDLabel // printed with its own words ("P.IVA 0123…"): labelled as a reader gives it
		}
		rows = append(rows, []string{name, r.Supplier, r.ISODate, strings.Join(r.Address, ", "), centsText(total), centsText(tax), strings.Join(items, ";"), r.Layout.String(), taxID, r.TaxRatesLabel(), r.ISOCurrency})
	}
	err := fsutil.WriteExport(filepath.Join(*out, "labels.csv"), func(w io.Writer) error {
		return csv.NewWriter(w).WriteAll(rows)
	})
	if err != nil {
		fmt.Fprintln(env.Stderr, "shoebox:", err)
		return 1
	}
	evalCountry := *country
	if p, ok := packs.Get(*country); ok && slices.Contains(synth.PackCountries, *country) {
		evalCountry = p.Jurisdiction // eval's --country is a tax jurisdiction (EU for Germany)
	}
	fmt.Fprintf(env.Stdout, "wrote %d receipts and labels.csv to %s\ntry: shoebox eval --labels %s --country %s\n", *n, *out, *out, evalCountry)
	return 0
}

func centsText(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
