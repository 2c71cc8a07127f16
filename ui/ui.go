// Package ui is Shoebox's desktop app in Fyne: the window a bookkeeper works
// in. It holds no business logic; it drives the library, engines and export
// through the same packages the CLI uses.
package ui

import (
	"flag"
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/assets"
)

// Main starts the desktop app with the GUI's own flags and returns the exit code.
func Main(args []string, version string) int {
	fs := flag.NewFlagSet("shoebox", flag.ContinueOnError)
	libraryDir := fs.String("library", "", "library folder (default: $SHOEBOX_HOME or the XDG data folder)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	a := app.NewWithID("app.shoebox.desktop")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	w := a.NewWindow("Shoebox")
	w.SetContent(welcome(version, *libraryDir))
	w.Resize(fyne.NewSize(1100, 720))
	w.ShowAndRun()
	return 0
}

func welcome(version, libraryDir string) fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Shoebox "+version, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	where := libraryDir
	if where == "" {
		where = os.Getenv("SHOEBOX_HOME")
	}
	msg := widget.NewLabel(fmt.Sprintf("Receipts in, spreadsheet out — read on this computer, never uploaded.\nLibrary: %s", orDefault(where)))
	msg.Alignment = fyne.TextAlignCenter
	return container.NewCenter(container.NewVBox(title, msg))
}

func orDefault(s string) string {
	if s == "" {
		return "(default data folder)"
	}
	return s
}
