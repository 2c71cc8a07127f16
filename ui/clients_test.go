package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/clients"
	"github.com/shoebox-app/shoebox/export"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// objects lists every canvas object under o, containers opened, widgets
// opened through their renderers (as the driver draws them).
func objects(o fyne.CanvasObject) []fyne.CanvasObject {
	out := []fyne.CanvasObject{o}
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, objects(c)...)
		}
	case *container.Scroll:
		out = append(out, objects(v.Content)...)
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			out = append(out, objects(c)...)
		}
	}
	return out
}

func buttonNamed(o fyne.CanvasObject, text string) *widget.Button {
	for _, c := range objects(o) {
		if b, ok := c.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	return nil
}

// newShell is the app's shell on a clients registry in a temporary folder,
// with the clients Alpha (Australian) and Beta (British).
func newShell(t *testing.T) *shell {
	t.Helper()
	home := t.TempDir()
	t.Setenv("SHOEBOX_HOME", home)
	reg, err := clients.Open(filepath.Join(home, "clients"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]receipt.Country{"Alpha": receipt.CountryAU, "Beta": receipt.CountryUK} {
		if _, err := reg.New(name, c); err != nil {
			t.Fatal(err)
		}
	}
	a := test.NewTempApp(t)
	s := &shell{app: a, win: a.NewWindow("Shoebox"), version: "test", machine: hw.Machine{CPUCores: 2}, registry: reg}
	t.Cleanup(s.close)
	return s
}

func TestSwitchingClientsKeepsTheirReceiptsApart(t *testing.T) {
	s := newShell(t)
	lib, client, dir, err := s.first("", "Alpha")
	if err != nil {
		t.Fatal(err)
	}
	u := s.open(lib, client, dir)
	if s.win.Title() != "Shoebox — Alpha" || u.clientButton.Text != "Alpha" {
		t.Errorf("title %q, client button %q", s.win.Title(), u.clientButton.Text)
	}
	addPaths(u, pngFiles(t, 2))
	if err := s.switchTo("Beta"); err != nil {
		t.Fatal(err)
	}
	if s.ui == u || s.ui.list.Len() != 0 || s.win.Title() != "Shoebox — Beta" {
		t.Fatalf("after switching to Beta: same UI %v, %d receipts listed, title %q", s.ui == u, s.ui.list.Len(), s.win.Title())
	}
	if c := s.ui.svc.Lib.Locale().Country; c != receipt.CountryUK {
		t.Errorf("Beta's library is in %s", c)
	}
	if err := s.switchTo("Alpha"); err != nil {
		t.Fatal(err)
	}
	if s.ui.list.Len() != 2 {
		t.Errorf("Alpha lists %d receipts after switching back", s.ui.list.Len())
	}
	// The client opened last is where the next start opens.
	s.close()
	if _, client, _, err := s.first("", ""); err != nil || client != "Alpha" {
		t.Errorf("next start opens %q (%v)", client, err)
	}
}

func TestClientSwitcherListsRecentFirstAndOpens(t *testing.T) {
	s := newShell(t)
	lib, client, dir, _ := s.first("", "Beta")
	u := s.open(lib, client, dir)
	u.showClients()
	canvas := s.win.Canvas()
	over := canvas.Overlays().Top()
	if over == nil {
		t.Fatal("no switcher shown")
	}
	var list *widget.List
	for _, o := range objects(over) {
		if l, ok := o.(*widget.List); ok {
			list = l
		}
	}
	if list == nil || list.Length() != 2 {
		t.Fatalf("the switcher lists %v clients", list)
	}
	// Beta was opened last, so it comes first.
	list.Select(1)
	test.Tap(buttonNamed(over, "Open"))
	if s.client != "Alpha" {
		t.Fatalf("open switched to %q", s.client)
	}
}

func TestCodingSavesAListedAccountAndTaxCode(t *testing.T) {
	u := newTestUI(t)
	lib := u.svc.Lib
	if err := lib.UseCountryDefaults(context.Background(), receipt.CountryAU); err != nil {
		t.Fatal(err)
	}
	addPaths(u, pngFiles(t, 1))
	extractAll(t, u)
	id := u.Current()
	u.Select(id)
	accts, _ := lib.Accounts()
	account := accts[0].Code
	// Completion: typing narrows the menu to the matching codes.
	u.form.coding.account.SetText("")
	test.Type(u.form.coding.account, account)
	u.form.coding.tax.SetText("GST")
	time.Sleep(saveDelay + 300*time.Millisecond)
	settle(u)
	c, err := lib.Coding(id)
	if err != nil || c.Account != account || c.TaxCode != "GST" || c.Source != receipt.SourceUser {
		t.Fatalf("coding = %+v, %v", c, err)
	}
	// A code the books do not list is not saved and the form says why.
	u.form.coding.tax.SetText("NOPE")
	u.form.coding.save()
	if c2, _ := lib.Coding(id); c2.TaxCode != "GST" || !strings.Contains(u.form.coding.origin.Text, "Not saved") {
		t.Errorf("after an unknown code: %+v, %q", c2, u.form.coding.origin.Text)
	}
}

func TestRulesTableAddsARule(t *testing.T) {
	u := newTestUI(t)
	lib := u.svc.Lib
	lib.UseCountryDefaults(context.Background(), receipt.CountryAU)
	u.showRules()
	wins := u.app.Driver().AllWindows()
	w := wins[len(wins)-1]
	var name *widget.Entry
	for _, o := range objects(w.Content()) {
		if e, ok := o.(*widget.Entry); ok && e.PlaceHolder == "supplier's name" {
			name = e
		}
	}
	if name == nil {
		t.Fatal("no row to add a rule")
	}
	test.Type(name, "Bunnings Warehouse")
	test.Tap(buttonNamed(w.Content(), "Add"))
	rules, err := lib.Rules()
	if err != nil || len(rules) != 1 || rules[0].Name != "Bunnings Warehouse" || !rules[0].Typed {
		t.Fatalf("rules = %+v, %v", rules, err)
	}
	if buttonNamed(w.Content(), "Save") == nil {
		t.Error("the new rule is not listed with a Save button")
	}
}

func TestPresetExportListsProblemsThatOpenTheReceipt(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 2))
	extractAll(t, u)
	path := filepath.Join(t.TempDir(), "bills.csv")
	_, err := clients.ExportPreset(u.svc.Lib, export.PresetXero, "", path, false)
	var ce *export.CheckError
	if !errors.As(err, &ce) || ce.Problems[0].ReceiptID == 0 {
		t.Fatalf("the check found %v", err)
	}
	want := ce.Problems[0].ReceiptID
	if id, ok := u.list.neighbour(want, 1); ok {
		u.Select(id)
	} else if id, ok := u.list.neighbour(want, -1); ok {
		u.Select(id)
	}
	u.exportPreset(export.PresetXero, clients.PresetRequest{}, path)
	if u.problems == nil {
		t.Fatal("no problem list shown for unconfirmed, uncoded receipts")
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a file was written although the check failed")
	}
	over := u.problems.win.Content()
	show := buttonNamed(over, "Show")
	if show == nil {
		t.Fatal("no Show button beside the problems")
	}
	test.Tap(show)
	if u.Current() != want {
		t.Errorf("Show opened receipt %d, want %d", u.Current(), want)
	}
	if u.problems == nil {
		t.Fatal("the problem list closed on Show")
	}
	// Confirming the receipt fixes its "not confirmed" problem: the list,
	// still open, marks it so.
	var status *problemRow
	for i := range u.problems.rows {
		if r := &u.problems.rows[i]; r.problem.ReceiptID == want && r.problem.Field == "status" {
			status = r
		}
	}
	if status == nil {
		t.Fatalf("no problem for receipt %d's status: %+v", want, ce.Problems)
	}
	u.ConfirmCurrent()
	if !status.fixed || !strings.HasPrefix(status.text.Text, "✓ Fixed") {
		t.Errorf("after confirming, the problem reads %q", status.text.Text)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a file was written while problems remain")
	}
}

// A refused export leaves nothing in the folder chosen: choosing where to
// save creates no file (the toolkit's save dialog created an empty one).
func TestRefusedExportLeavesNoFile(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	extractAll(t, u)
	dir := t.TempDir()
	u.chooseExportFile("bills.csv", ".csv", func(path string) { u.exportPreset(export.PresetXero, clients.PresetRequest{}, path) })
	over := u.win.Canvas().Overlays().Top()
	if over == nil {
		t.Fatal("no dialog to choose where to save")
	}
	var entries []*widget.Entry
	for _, o := range objects(over) {
		if e, ok := o.(*widget.Entry); ok {
			entries = append(entries, e)
		}
	}
	if len(entries) != 2 {
		t.Fatalf("%d text boxes in the save dialog", len(entries))
	}
	entries[0].SetText(dir)
	test.Tap(buttonNamed(over, "Export"))
	if u.problems == nil {
		t.Fatal("the unconfirmed receipt was not refused")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a refused export left %v in the folder", left)
	}
	if u.svc.Lib.Setting(settingExportFolder) != dir {
		t.Errorf("the folder is not remembered for the next export")
	}
}

// A rule saved in the table is offered for the receipts already read from
// its supplier, and books them when accepted.
func TestNewRuleOfferedForTheReceiptsItMatches(t *testing.T) {
	u := newTestUI(t)
	lib := u.svc.Lib
	lib.UseCountryDefaults(context.Background(), receipt.CountryAU)
	addPaths(u, pngFiles(t, 3))
	for i, r := range u.list.rows {
		name := "BUNNINGS WAREHOUSE"
		if i == 2 {
			name = "Officeworks"
		}
		rec := receipt.Receipt{SupplierName: receipt.Of(name, receipt.SourceOCR, 0.9)}
		if err := lib.SaveExtraction(context.Background(), r.ID, rec, "ocr", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
	}
	u.showRules()
	wins := u.app.Driver().AllWindows()
	w := wins[len(wins)-1]
	for _, o := range objects(w.Content()) {
		switch e := o.(type) {
		case *widget.Entry:
			if e.PlaceHolder == "supplier's name" {
				test.Type(e, "Bunnings Warehouse")
			}
		case *widget.SelectEntry:
			switch e.PlaceHolder {
			case "account":
				e.SetText("453")
			case "tax code":
				e.SetText("GST")
			}
		}
	}
	test.Tap(buttonNamed(w.Content(), "Add"))
	if u.ruleOffer == nil {
		t.Fatal("the new rule was not offered for the two Bunnings receipts already read")
	}
	u.ruleOffer.Confirm()
	booked := 0
	for _, r := range u.list.rows {
		c, _ := lib.Coding(r.ID)
		rec, _ := lib.Get(r.ID)
		if c.Account == "453" && c.TaxCode == "GST" {
			booked++
			if rec.Receipt.SupplierName.Value != "BUNNINGS WAREHOUSE" {
				t.Errorf("%s's receipt was booked by the Bunnings rule", rec.Receipt.SupplierName.Value)
			}
		}
	}
	if booked != 2 {
		t.Errorf("%d receipts booked by the rule, want the 2 from Bunnings", booked)
	}
	if ids := ruleMatches(lib, library.SupplierRule{Name: "Bunnings Warehouse", Account: "453", TaxCode: "GST"}); len(ids) != 0 {
		t.Errorf("still offered for %v after booking", ids)
	}
}

// An export saves the coding on screen only when something was typed: a
// confirmed receipt nobody coded stays confirmed (the save booked it anew,
// empty, and sent it back to review).
func TestExportKeepsAConfirmedReceiptConfirmed(t *testing.T) {
	u := newTestUI(t)
	addPaths(u, pngFiles(t, 1))
	extractAll(t, u)
	id := u.Current()
	u.ConfirmCurrent()
	u.Select(id)
	u.exportPreset(export.PresetXero, clients.PresetRequest{}, filepath.Join(t.TempDir(), "bills.csv"))
	if rec, _ := u.svc.Lib.Get(id); rec.Status != library.StatusConfirmed {
		t.Errorf("after an export the confirmed receipt is %s", rec.Status)
	}
}
