// Package clients keeps a bookkeeper's clients apart: a registry in a
// parent folder lists them (recent first), and each client is its own
// library folder with its own database, originals, settings and books, so
// no two clients' receipts ever mix. It also hands a client's receipts to
// the export presets with their coding, and moves a receipt between
// clients as an explicit, recorded action.
package clients

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/shoebox-app/shoebox/internal/fsutil"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// Client is one entry of the registry.
type Client struct {
	Name       string    `json:"name"`
	Folder     string    `json:"folder"` // relative to the registry's folder
	Created    time.Time `json:"created"`
	LastOpened time.Time `json:"last_opened"`
	Archived   bool      `json:"archived,omitempty"`
}

// Registry is the list of clients kept in a parent folder's clients.json.
type Registry struct {
	dir     string
	clients []Client
	now     func() time.Time
}

// registryFile is the registry's name in its folder; lockName is the file
// beside it that every change locks (never removed: removing a locked file
// lets the next writer lock a new one while the old lock is still held).
const (
	registryFile = "clients.json"
	lockName     = "clients.json.lock"
)

// ErrNoClient is returned for a name the registry does not hold.
var ErrNoClient = errors.New("no such client")

// DefaultDir is where the registry lives: a "clients" folder in the
// default library folder.
func DefaultDir() (string, error) {
	d, err := library.DefaultDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "clients"), nil
}

// Open reads the registry in dir (an empty one if there is none yet).
func Open(dir string) (*Registry, error) {
	r := &Registry{dir: dir, now: time.Now}
	if err := r.reload(); err != nil {
		return nil, err
	}
	return r, nil
}

// update makes one change to the registry: with the registry's lock held
// (across processes: the app, and any number of commands run beside it),
// it reads the file again, applies change to the list as it is now and
// writes the list back atomically. Reading before the lock, or writing a
// list read earlier, would undo another writer's change: issue 38 saw 12
// concurrent `clients new` leave 3 clients listed.
func (r *Registry) update(change func() error) error {
	unlock, err := r.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := r.reload(); err != nil {
		return err
	}
	err = change()
	if err == nil {
		err = r.save()
	}
	if err != nil {
		_ = r.reload() // keep r as the file says, not as the failed change left it; err is the one to report
	}
	return err
}

// lock takes the registry's lock file, waiting for another writer to
// finish; the lock goes with the process, so a killed writer leaves none.
func (r *Registry) lock() (func(), error) {
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the clients folder %s: %w", r.dir, err)
	}
	f, err := os.OpenFile(filepath.Join(r.dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the list of clients in %s: %w", r.dir, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock the list of clients in %s: %w", r.dir, err)
	}
	return func() {
		_ = unlockFile(f) // closing the file releases the lock in any case
		f.Close()
	}, nil
}

// reload reads the registry file again. A change reads it under the lock
// (update); a plain read needs no lock, since the file is only ever
// replaced whole.
func (r *Registry) reload() error {
	b, err := os.ReadFile(filepath.Join(r.dir, registryFile))
	if errors.Is(err, os.ErrNotExist) {
		r.clients = nil
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read the list of clients in %s: %w", r.dir, err)
	}
	var list []Client
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("the list of clients %s is damaged: %w", filepath.Join(r.dir, registryFile), err)
	}
	r.clients = list
	return nil
}

// Dir is the registry's folder.
func (r *Registry) Dir() string { return r.dir }

// List returns the clients, most recently opened first; archived ones only
// when asked.
func (r *Registry) List(archived bool) []Client {
	var out []Client
	for _, c := range r.clients {
		if !c.Archived || archived {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].LastOpened.Equal(out[j].LastOpened) {
			return out[i].LastOpened.After(out[j].LastOpened)
		}
		return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name)
	})
	return out
}

func (r *Registry) find(name string) int {
	for i, c := range r.clients {
		if strings.EqualFold(strings.TrimSpace(name), c.Name) {
			return i
		}
	}
	return -1
}

// Get returns a client by name (any case).
func (r *Registry) Get(name string) (Client, error) {
	i := r.find(name)
	if i < 0 {
		return Client{}, fmt.Errorf("client %q: %w (shoebox clients list shows them)", name, ErrNoClient)
	}
	return r.clients[i], nil
}

// Path is a client's library folder.
func (r *Registry) Path(c Client) string { return filepath.Join(r.dir, c.Folder) }

// New adds a client with its own library folder, set to the country's
// locale, tax codes and default chart of accounts.
func (r *Registry) New(name string, country receipt.Country) (Client, error) {
	name = strings.TrimSpace(name)
	if err := validName(name); err != nil {
		return Client{}, err
	}
	var c Client
	err := r.update(func() error {
		if r.find(name) >= 0 {
			return fmt.Errorf("there is already a client called %q", name)
		}
		folder := folderName(name)
		for n := 2; r.folderTaken(folder); n++ {
			folder = fmt.Sprintf("%s-%d", folderName(name), n)
		}
		now := r.now().UTC()
		c = Client{Name: name, Folder: folder, Created: now, LastOpened: now}
		l, err := library.Open(r.Path(c))
		if err != nil {
			return err
		}
		defer l.Close()
		if err := l.SetLocale(receipt.DefaultLocale(country)); err != nil {
			return err
		}
		if err := l.UseCountryDefaults(context.Background(), country); err != nil {
			return err
		}
		r.clients = append(r.clients, c)
		return nil
	})
	if err != nil {
		return Client{}, err
	}
	return c, nil
}

// Adopt lists an existing library folder as a client under name, leaving
// the folder where it is: the library the app used before any client was
// made (the default one, which holds the registry's folder) becomes a
// client like any other, to be named, listed, switched to and archived
// (issue 40 item 1). A folder listed already returns its client as it is;
// a name taken gets a number ("First client 2"). The client is listed as
// never opened, so it does not displace the client opened last.
func (r *Registry) Adopt(name, dir string) (Client, error) {
	name = strings.TrimSpace(name)
	if err := validName(name); err != nil {
		return Client{}, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Client{}, err
	}
	if st, err := os.Stat(filepath.Join(abs, "library.db")); err != nil || !st.Mode().IsRegular() {
		return Client{}, fmt.Errorf("%s holds no library to list as a client", dir)
	}
	var c Client
	err = r.update(func() error {
		if i := r.byPath(abs); i >= 0 {
			c = r.clients[i]
			return nil
		}
		base, err := filepath.Abs(r.dir)
		if err != nil {
			return err
		}
		folder, err := filepath.Rel(base, abs)
		if err != nil {
			return fmt.Errorf("%s cannot be listed as a client: %w", dir, err)
		}
		unique := name
		for n := 2; r.find(unique) >= 0; n++ {
			unique = fmt.Sprintf("%s %d", name, n)
		}
		c = Client{Name: unique, Folder: folder, Created: r.now().UTC()}
		r.clients = append(r.clients, c)
		return nil
	})
	if err != nil {
		return Client{}, err
	}
	return c, nil
}

// ByPath returns the client whose library is the folder dir, archived or not.
func (r *Registry) ByPath(dir string) (Client, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Client{}, false
	}
	if i := r.byPath(abs); i >= 0 {
		return r.clients[i], true
	}
	return Client{}, false
}

func (r *Registry) byPath(abs string) int {
	for i, c := range r.clients {
		if p, err := filepath.Abs(r.Path(c)); err == nil && p == abs {
			return i
		}
	}
	return -1
}

func (r *Registry) folderTaken(folder string) bool {
	for _, c := range r.clients {
		if strings.EqualFold(c.Folder, folder) {
			return true
		}
	}
	_, err := os.Stat(filepath.Join(r.dir, folder))
	return err == nil
}

// Rename gives a client a new name; its folder stays where it is.
func (r *Registry) Rename(old, name string) error {
	name = strings.TrimSpace(name)
	if err := validName(name); err != nil {
		return err
	}
	return r.update(func() error {
		i := r.find(old)
		if i < 0 {
			return fmt.Errorf("client %q: %w", old, ErrNoClient)
		}
		if j := r.find(name); j >= 0 && j != i {
			return fmt.Errorf("there is already a client called %q", name)
		}
		r.clients[i].Name = name
		return nil
	})
}

// Archive hides a client from the switcher; its library stays on disk.
func (r *Registry) Archive(name string) error { return r.setArchived(name, true) }

// Unarchive brings an archived client back.
func (r *Registry) Unarchive(name string) error { return r.setArchived(name, false) }

func (r *Registry) setArchived(name string, v bool) error {
	return r.update(func() error {
		i := r.find(name)
		if i < 0 {
			return fmt.Errorf("client %q: %w", name, ErrNoClient)
		}
		r.clients[i].Archived = v
		return nil
	})
}

// OpenLibrary opens a client's library and marks the client as the most
// recently opened.
func (r *Registry) OpenLibrary(name string) (*library.Library, Client, error) {
	if err := r.reload(); err != nil {
		return nil, Client{}, err
	}
	i := r.find(name)
	if i < 0 {
		return nil, Client{}, fmt.Errorf("client %q: %w (shoebox clients list shows them)", name, ErrNoClient)
	}
	if r.clients[i].Archived {
		return nil, Client{}, fmt.Errorf("client %q is archived: shoebox clients unarchive %q brings it back", r.clients[i].Name, r.clients[i].Name)
	}
	c := r.clients[i]
	l, err := library.Open(r.Path(c))
	if err != nil {
		return nil, Client{}, err
	}
	// The client is found again by its folder under the lock: another
	// writer may have renamed it since.
	err = r.update(func() error {
		for i := range r.clients {
			if r.clients[i].Folder == c.Folder {
				r.clients[i].LastOpened = r.now().UTC()
				c = r.clients[i]
				return nil
			}
		}
		return fmt.Errorf("client %q: %w (shoebox clients list shows them)", name, ErrNoClient)
	})
	if err != nil {
		l.Close()
		return nil, Client{}, err
	}
	return l, c, nil
}

// save writes the list; only update calls it, with the lock held.
func (r *Registry) save() error {
	b, err := json.MarshalIndent(r.clients, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteAtomic(filepath.Join(r.dir, registryFile), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}

func validName(name string) error {
	if name == "" {
		return fmt.Errorf("a client needs a name")
	}
	if len(name) > 120 {
		return fmt.Errorf("a client's name can be at most 120 characters")
	}
	for _, c := range name {
		if unicode.IsControl(c) {
			return fmt.Errorf("a client's name cannot hold control characters")
		}
	}
	return nil
}

// folderName makes a safe folder name from a client's name: "Smith & Co
// Pty Ltd" → "smith-co-pty-ltd".
func folderName(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimSuffix(b.String(), "-")
	if s == "" {
		s = "client"
	}
	if rs := []rune(s); len(rs) > 60 {
		s = strings.TrimSuffix(string(rs[:60]), "-")
	}
	return s
}
