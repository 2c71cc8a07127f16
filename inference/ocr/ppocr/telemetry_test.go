package ppocr

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// telemetryChild makes the test binary, run again by
// TestONNXRuntimeLeavesNoFilesBehind, read a page in a fresh process.
const telemetryChild = "SHOEBOX_TEST_ORT_CHILD"

// ONNX Runtime 1.30 starts Microsoft's telemetry (1DS) when its
// environment is made: a persistent device id under
// ~/.cache/Microsoft/DeveloperTools/.onnxruntime, an event database, and
// $TMPDIR/.ses and $TMPDIR/mat-debug-PID.log. An offline, private app
// leaves no tracking id and no litter: a process that reads a page writes
// nothing in its home, its cache, its temp folder or its working folder.
func TestONNXRuntimeLeavesNoFilesBehind(t *testing.T) {
	d := testDir(t)
	if os.Getenv(telemetryChild) != "" {
		r, err := New(Options{Dir: d})
		if err != nil {
			t.Fatal(err)
		}
		img := image.NewRGBA(image.Rect(0, 0, 320, 120))
		draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
		for x := 40; x < 280; x++ {
			for y := 50; y < 70; y++ {
				img.Set(x, y, color.Black)
			}
		}
		if _, _, err := r.Read(context.Background(), img, 0); err != nil {
			t.Fatal(err)
		}
		r.Close()
		return
	}
	root := t.TempDir()
	home, tmp, cwd := filepath.Join(root, "home"), filepath.Join(root, "tmp"), filepath.Join(root, "cwd")
	for _, p := range []string{home, tmp, cwd} {
		os.MkdirAll(p, 0o700)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestONNXRuntimeLeavesNoFilesBehind$", "-test.count=1", "-test.v")
	cmd.Dir = cwd
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "TMPDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
			// ONNX Runtime stays quiet in CI and under its own tests: the
			// child must run as a user's process does.
			"CI", "TF_BUILD", "GITHUB_ACTIONS", "GITLAB_CI", "JENKINS_URL", "BUILDKITE", "ORT_RUNNING_UNIT_TESTS":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, telemetryChild+"=1", "HOME="+home, "TMPDIR="+tmp, EnvDir+"="+d)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the reading process: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestONNXRuntimeLeavesNoFilesBehind") {
		t.Fatalf("the reading process did not run the test:\n%s", out)
	}
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && p != root && p != home && p != tmp && p != cwd {
			t.Errorf("left behind: %s", strings.TrimPrefix(p, root))
		}
		return nil
	})
}
