package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/plain"
)

// settingLastFolder is the folder Add files… opened last.
const settingLastFolder = "ui.last_folder"

// fileChooser picks several receipt files from a folder, or the folder
// itself; a path can be typed or pasted.
type fileChooser struct {
	u       *UI
	path    *widget.Entry
	list    *widget.List
	info    *widget.Label
	dir     string
	entries []os.DirEntry // subfolders first, then receipt files
	chosen  map[string]bool
	dlg     dialog.Dialog
	// addChosen is the dialog's main button.
	addChosen *widget.Button
}

func (u *UI) startFolder() string {
	if d := u.svc.Lib.Setting(settingLastFolder); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return "/"
}

func (u *UI) showAddFiles() { u.newFileChooser().dlg.Show() }

func (u *UI) showAddFolder() { u.showAddFiles() }

func (u *UI) newFileChooser() *fileChooser {
	c := &fileChooser{u: u, chosen: map[string]bool{}}
	c.path = widget.NewEntry()
	c.path.SetPlaceHolder("Type or paste a folder or file, then press Enter")
	c.path.OnSubmitted = func(s string) { c.open(strings.TrimSpace(s)) }
	c.info = widget.NewLabel("")
	c.list = widget.NewList(func() int { return len(c.entries) },
		func() fyne.CanvasObject {
			return container.NewBorder(nil, nil, widget.NewCheck("", nil), nil, widget.NewLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			label, check := row.Objects[0].(*widget.Label), row.Objects[1].(*widget.Check)
			e := c.entries[i]
			full := filepath.Join(c.dir, e.Name())
			if e.IsDir() {
				label.SetText("▸ " + e.Name() + "/")
				check.Hide()
				return
			}
			label.SetText(e.Name())
			check.Show()
			check.OnChanged = nil
			check.SetChecked(c.chosen[full])
			check.OnChanged = func(b bool) { c.choose(full, b) }
		})
	c.list.OnSelected = func(i widget.ListItemID) {
		c.list.UnselectAll()
		e := c.entries[i]
		full := filepath.Join(c.dir, e.Name())
		if e.IsDir() {
			c.open(full)
			return
		}
		c.choose(full, !c.chosen[full])
		c.list.RefreshItem(i)
	}
	up := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { c.open(filepath.Dir(c.dir)) })
	all := widget.NewButton("Choose all files", func() {
		for _, e := range c.entries {
			if !e.IsDir() {
				c.chosen[filepath.Join(c.dir, e.Name())] = true
			}
		}
		c.list.Refresh()
		c.count()
	})
	addFolder := widget.NewButton("Add the whole folder", func() { c.add([]string{c.dir}) })
	addFiles := widget.NewButton("Add the chosen files", func() {
		var paths []string
		for p, ok := range c.chosen {
			if ok {
				paths = append(paths, p)
			}
		}
		sort.Strings(paths)
		c.add(paths)
	})
	addFiles.Importance = widget.HighImportance
	c.addChosen = addFiles
	top := container.NewBorder(nil, nil, up, nil, c.path)
	bottom := container.NewBorder(nil, nil, all, container.NewHBox(addFolder, addFiles), c.info)
	c.dlg = dialog.NewCustom("Add receipts", "Cancel", container.NewBorder(top, bottom, nil, nil, c.list), u.win)
	c.dlg.Resize(fyne.NewSize(720, 520))
	c.open(u.startFolder())
	return c
}

// open lists a folder; a typed file's folder opens with the file chosen.
func (c *fileChooser) open(p string) {
	if p == "" {
		return
	}
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	st, err := os.Stat(p)
	if err != nil {
		c.info.SetText("No such folder or file: " + p)
		return
	}
	if !st.IsDir() {
		c.chosen[p] = true
		p = filepath.Dir(p)
	}
	all, err := os.ReadDir(p)
	if err != nil {
		c.info.SetText("This folder cannot be read: " + err.Error())
		return
	}
	c.dir = p
	c.entries = c.entries[:0]
	var files []os.DirEntry
	for _, e := range all {
		switch {
		case strings.HasPrefix(e.Name(), "."):
		case e.IsDir():
			c.entries = append(c.entries, e)
		case ingest.ReadableName(e.Name()): // every kind an import takes, e-invoices' .xml included
			files = append(files, e)
		}
	}
	c.entries = append(c.entries, files...)
	c.path.SetText(p)
	c.list.Refresh()
	c.list.ScrollToTop()
	c.count()
}

func (c *fileChooser) choose(p string, on bool) {
	if on {
		c.chosen[p] = true
	} else {
		delete(c.chosen, p)
	}
	c.count()
}

func (c *fileChooser) count() {
	n := 0
	for _, ok := range c.chosen {
		if ok {
			n++
		}
	}
	c.info.SetText(fmt.Sprintf("%d %s chosen", n, plain.Word(n, "file", "files")))
}

func (c *fileChooser) add(paths []string) {
	if len(paths) == 0 {
		c.info.SetText("Choose files first (tap them), or add the whole folder.")
		return
	}
	c.u.saveSettings(settingLastFolder, c.dir)
	c.dlg.Hide()
	go c.u.AddPaths(paths)
}
