package ui

import (
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// receiptList is the left-hand list: thumbnail, supplier, date, total and
// status of every receipt matching the filter. widget.List only builds the
// rows on screen, so 10,000 receipts scroll like ten.
type receiptList struct {
	u      *UI
	widget *widget.List
	mu     sync.Mutex
	rows   []library.Summary
	thumbs map[string]image.Image
	order  []string // thumbnail cache, oldest first
}

const thumbCache = 300

func newReceiptList(u *UI) *receiptList {
	l := &receiptList{u: u, thumbs: map[string]image.Image{}}
	l.widget = widget.NewList(
		func() int { l.mu.Lock(); defer l.mu.Unlock(); return len(l.rows) },
		func() fyne.CanvasObject {
			img := canvas.NewImageFromImage(nil)
			img.FillMode = canvas.ImageFillContain
			img.SetMinSize(fyne.NewSize(36, 48))
			title := widget.NewLabel("")
			title.Truncation = fyne.TextTruncateEllipsis
			title.TextStyle = fyne.TextStyle{Bold: true}
			detail := widget.NewLabel("")
			detail.Truncation = fyne.TextTruncateEllipsis
			icon := widget.NewIcon(nil)
			return container.NewBorder(nil, nil, img, icon, container.NewVBox(title, detail))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			l.mu.Lock()
			if i >= len(l.rows) {
				l.mu.Unlock()
				return
			}
			r := l.rows[i]
			l.mu.Unlock()
			b := o.(*fyne.Container)
			texts := b.Objects[0].(*fyne.Container)
			img := b.Objects[1].(*canvas.Image)
			icon := b.Objects[2].(*widget.Icon)
			title := r.Supplier
			if title == "" {
				title = r.OriginalName
			}
			texts.Objects[0].(*widget.Label).SetText(title)
			texts.Objects[1].(*widget.Label).SetText(rowDetail(r))
			icon.SetResource(statusIcon(r))
			img.Image = l.thumb(r.SHA256)
			img.Refresh()
		})
	l.widget.OnSelected = func(i widget.ListItemID) {
		l.mu.Lock()
		if i >= len(l.rows) {
			l.mu.Unlock()
			return
		}
		id := l.rows[i].ID
		l.mu.Unlock()
		if id != u.Current() {
			u.Select(id)
		}
	}
	return l
}

func rowDetail(r library.Summary) string {
	var parts []string
	if r.Date != "" {
		parts = append(parts, r.Date)
	}
	if r.HasTotal {
		parts = append(parts, receipt.Money{Amount: r.Total, Currency: r.Currency}.String())
	}
	switch {
	case r.Status == library.StatusDuplicate:
		parts = append(parts, copyText(r.DuplicateOf))
	case r.DuplicateOf != 0:
		parts = append(parts, statusText(r.Status), fmt.Sprintf("duplicate of #%d?", r.DuplicateOf))
	case r.Warnings > 0 && r.Status != library.StatusConfirmed: // a person checked it
		parts = append(parts, statusText(r.Status), fmt.Sprintf("%d to check", r.Warnings))
	default:
		parts = append(parts, statusText(r.Status))
	}
	return fmt.Sprintf("#%d  %s", r.ID, strings.Join(parts, " · "))
}

func statusText(s library.Status) string {
	return map[library.Status]string{
		library.StatusNew: "new", library.StatusQueued: "queued", library.StatusExtracting: "reading…",
		library.StatusExtracted: "ready to confirm", library.StatusNeedsReview: "needs review",
		library.StatusConfirmed: "confirmed", library.StatusFailed: "failed", library.StatusDuplicate: "duplicate",
	}[s]
}

// copyText says that a receipt is marked as a copy of receipt other, which
// leaves it out of review and exports.
func copyText(other int64) string {
	if other == 0 {
		return "duplicate, left out"
	}
	return fmt.Sprintf("copy of #%d, left out", other)
}

func statusIcon(r library.Summary) fyne.Resource {
	switch {
	case r.Status == library.StatusFailed:
		return theme.ErrorIcon()
	case r.Status == library.StatusDuplicate:
		return theme.ContentCopyIcon()
	case r.DuplicateOf != 0 || r.Warnings > 0 && r.Status != library.StatusConfirmed:
		return theme.WarningIcon()
	case r.Status == library.StatusConfirmed:
		return theme.ConfirmIcon()
	case r.Status == library.StatusQueued || r.Status == library.StatusExtracting:
		return theme.HistoryIcon()
	}
	return theme.DocumentIcon()
}

func (l *receiptList) thumb(sha string) image.Image {
	l.mu.Lock()
	defer l.mu.Unlock()
	if img, ok := l.thumbs[sha]; ok {
		return img
	}
	f, err := os.Open(filepath.Join(l.u.svc.Lib.Dir(), "thumbs", sha+".jpg"))
	if err != nil {
		return nil
	}
	defer f.Close()
	img, err := jpeg.Decode(f)
	if err != nil {
		return nil
	}
	l.thumbs[sha] = img
	l.order = append(l.order, sha)
	if len(l.order) > thumbCache {
		delete(l.thumbs, l.order[0])
		l.order = l.order[1:]
	}
	return img
}

func (l *receiptList) set(rows []library.Summary) {
	l.mu.Lock()
	l.rows = rows
	l.mu.Unlock()
	l.widget.Refresh()
	l.selectID(l.u.Current())
}

func (l *receiptList) index(id int64) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, r := range l.rows {
		if r.ID == id {
			return i
		}
	}
	return -1
}

func (l *receiptList) selectID(id int64) {
	if i := l.index(id); i >= 0 {
		l.widget.Select(i)
		l.widget.ScrollTo(i)
	}
}

func (l *receiptList) neighbour(id int64, dir int) (int64, bool) {
	i := l.index(id)
	l.mu.Lock()
	defer l.mu.Unlock()
	j := i + dir
	if i < 0 || j < 0 || j >= len(l.rows) {
		return 0, false
	}
	return l.rows[j].ID, true
}

// Len is the number of rows shown.
func (l *receiptList) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.rows)
}
