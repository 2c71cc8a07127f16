package ppocr

import (
	"os"
	"path/filepath"

	"github.com/shoebox-app/shoebox/internal/envvars"
)

// shippedDirs are where a release puts the reader's parts, relative to the
// folder of the binary (its symbolic links followed):
//   - lib/ppocr: the Windows install folder and the portable tar.xz
//     (shoebox beside lib/);
//   - ../lib/ppocr: the build tree (build/bin, build/lib) and the .deb
//     (/usr/lib/shoebox/bin, /usr/lib/shoebox/lib; /usr/bin/shoebox links
//     to the binary).
var shippedDirs = []string{"lib/ppocr", "../lib/ppocr"}

// Candidates are the folders DefaultDir looks in, in order.
func Candidates() []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	var dirs []string
	for _, d := range shippedDirs {
		dirs = append(dirs, filepath.Join(filepath.Dir(exe), filepath.FromSlash(d)))
	}
	return dirs
}

// DefaultDir is where the reader's parts are: $SHOEBOX_PPOCR_DIR, else the
// first of Candidates that holds them all, else the first of Candidates
// (whose missing files the reader's error then names).
func DefaultDir() string {
	if d := envvars.PPOCRDir.Get(); d != "" {
		return d
	}
	dirs := Candidates()
	for _, d := range dirs {
		if Missing(d) == "" {
			return d
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	return dirs[0]
}
