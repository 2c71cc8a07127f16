package clients

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// The helper below is this test binary started again as a separate
// process: one `shoebox clients new` or one `--client NAME` opener, each
// with its own Registry value, as the shell loops of issue 38 ran them.
const (
	envHelperDir  = "SHOEBOX_TEST_REGISTRY_DIR"
	envHelperNew  = "SHOEBOX_TEST_REGISTRY_NEW"
	envHelperOpen = "SHOEBOX_TEST_REGISTRY_OPEN"
)

func TestRegistryWriterHelper(t *testing.T) {
	dir := os.Getenv(envHelperDir)
	if dir == "" {
		t.Skip("run by TestConcurrentWritersLoseNoClient as a separate process")
	}
	if name := os.Getenv(envHelperNew); name != "" {
		reg, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := reg.New(name, receipt.CountryAU); err != nil {
			t.Fatal(err)
		}
	}
	if name := os.Getenv(envHelperOpen); name != "" {
		// Open the client over and over until told to stop (the
		// registry's folder gets a file "stop").
		for i := 0; i < 200; i++ {
			if _, err := os.Stat(dir + "/stop"); err == nil {
				return
			}
			reg, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			l, _, err := reg.OpenLibrary(name)
			if err != nil {
				t.Fatal(err)
			}
			l.Close()
		}
	}
}

// TestConcurrentWritersLoseNoClient starts 20 `clients new` at once, as
// separate processes, while two more keep opening a client (which rewrites
// its last_opened): every client must be listed afterwards, once, with its
// own folder. Issue 38 item 1 saw 3 of 12 listed.
func TestConcurrentWritersLoseNoClient(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 22 processes")
	}
	dir := t.TempDir()
	reg, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.New("Main", receipt.CountryAU); err != nil {
		t.Fatal(err)
	}
	run := func(env ...string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRegistryWriterHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), append([]string{envHelperDir + "=" + dir}, env...)...)
		return cmd
	}
	var openers []*exec.Cmd
	for i := 0; i < 2; i++ {
		c := run(envHelperOpen + "=Main")
		var out strings.Builder
		c.Stdout, c.Stderr = &out, &out
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		openers = append(openers, c)
	}
	const n = 20
	var wg sync.WaitGroup
	errs := make([]string, n)
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out, err := run(fmt.Sprintf("%s=Client %d", envHelperNew, i)).CombinedOutput()
			if err != nil {
				errs[i-1] = fmt.Sprintf("Client %d: %v\n%s", i, err, out)
			}
		}(i)
	}
	wg.Wait()
	os.WriteFile(dir+"/stop", nil, 0o600)
	for _, c := range openers {
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("opener: %v\n%s", err, c.Stdout)
			}
		case <-time.After(2 * time.Minute):
			c.Process.Kill()
			t.Error("an opener did not stop")
		}
	}
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	reg, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	list := reg.List(true)
	folders := map[string]bool{}
	for _, c := range list {
		if folders[c.Folder] {
			t.Errorf("folder %s listed twice", c.Folder)
		}
		folders[c.Folder] = true
	}
	for i := 1; i <= n; i++ {
		c, err := reg.Get(fmt.Sprintf("Client %d", i))
		if err != nil {
			t.Errorf("Client %d: %v", i, err)
			continue
		}
		if want := fmt.Sprintf("client-%d", i); c.Folder != want {
			t.Errorf("Client %d has folder %s, want %s", i, c.Folder, want)
		}
	}
	if len(list) != n+1 {
		t.Errorf("%d clients listed, want %d", len(list), n+1)
	}
	if _, err := reg.Get("Main"); err != nil {
		t.Error(err)
	}
}
