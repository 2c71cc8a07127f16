package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shoebox-app/shoebox/models/gguf"
)

// tinyGGUF writes a small valid GGUF file and returns its bytes.
func tinyGGUF(t *testing.T, path string) []byte {
	t.Helper()
	var w gguf.Writer
	w.Set("general.architecture", "llama")
	w.Set("general.name", "tiny")
	vals := make([]float32, 64*16)
	for i := range vals {
		vals[i] = float32(i%7) / 7
	}
	w.AddF32("token_embd.weight", []uint64{64, 16}, vals)
	w.AddF32("blk.0.attn_norm.weight", []uint64{64}, vals[:64])
	if err := w.Write(path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	return data
}

func refFor(data []byte, name string) FileRef {
	s := sha256.Sum256(data)
	return FileRef{Name: name, Size: int64(len(data)), SHA256: hex.EncodeToString(s[:])}
}

func TestVerifyGoodFileAndCache(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "model.gguf")
	data := tinyGGUF(t, p)
	ref := refFor(data, "model.gguf")
	cache := OpenHashCache(filepath.Join(dir, "hashes.json"))
	v, err := Verify(p, &ref, cache)
	if err != nil || v.Cached || v.Header == nil || len(v.Header.Tensors) != 2 {
		t.Fatalf("first verify: %+v %v", v, err)
	}
	v, err = Verify(p, &ref, OpenHashCache(filepath.Join(dir, "hashes.json")))
	if err != nil || !v.Cached {
		t.Fatalf("second verify did not use the cache: %+v %v", v, err)
	}
}

func TestVerifyFailures(t *testing.T) {
	dir := t.TempDir()
	good := tinyGGUF(t, filepath.Join(dir, "good.gguf"))
	ref := refFor(good, "model.gguf")
	tests := []struct {
		name string
		data func() []byte
		ref  *FileRef
		want string
	}{
		{
			"truncated", func() []byte { return good[:len(good)-100] }, &ref,
			fmt.Sprintf("model file model.gguf is truncated: %s of %s — download it again (a download resumes where it stopped)", HumanSize(int64(len(good)-100)), HumanSize(int64(len(good)))),
		},
		{
			"flipped byte", func() []byte { b := append([]byte(nil), good...); b[len(b)-10] ^= 0x40; return b }, &ref,
			"model file model.gguf has SHA-256 ",
		},
		{
			"wrong magic", func() []byte { b := append([]byte(nil), good...); copy(b, "GGML"); return b }, &ref,
			`model file model.gguf is damaged: not a GGUF file: it starts with "GGML", not "GGUF" — download it again`,
		},
		{
			"tensor past end of file", func() []byte { return good[:len(good)-100] }, nil,
			"model file model.gguf is damaged: tensor \"blk.0.attn_norm.weight\" ends at byte",
		},
		{
			"header cut off", func() []byte { return good[:20] }, nil,
			"model file model.gguf is damaged: ",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "model.gguf")
			os.WriteFile(p, tt.data(), 0o644)
			_, err := Verify(p, tt.ref, nil)
			if err == nil || !errors.Is(err, ErrIntegrity) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestUnknownFileIsAllowedWithAWarning(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mine.gguf")
	tinyGGUF(t, p)
	v, err := Verify(p, nil, nil)
	if err != nil || len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], "not in Shoebox's catalogue") {
		t.Fatalf("%+v %v", v, err)
	}
}

// flakyServer serves data with an ETag and Range support; the first response
// is cut off after cut bytes.
func flakyServer(t *testing.T, data []byte, cut int, etag *atomic.Value) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		tag := etag.Load().(string)
		w.Header().Set("ETag", tag)
		w.Header().Set("Accept-Ranges", "bytes")
		start := 0
		if rg := r.Header.Get("Range"); rg != "" && (r.Header.Get("If-Range") == "" || r.Header.Get("If-Range") == tag) {
			fmt.Sscanf(rg, "bytes=%d-", &start)
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, len(data)-1, len(data)))
			w.Header().Set("Content-Length", fmt.Sprint(len(data)-start))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			w.WriteHeader(http.StatusOK)
		}
		body := data[start:]
		if n == 1 && cut > 0 {
			w.Write(body[:cut])
			if h, ok := w.(http.Hijacker); ok { // drop the connection mid-transfer
				conn, _, _ := h.Hijack()
				conn.Close()
			}
			return
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestDownloadResumesAfterAnInterruption(t *testing.T) {
	data := make([]byte, 3<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	var etag atomic.Value
	etag.Store(`"v1"`)
	srv, calls := flakyServer(t, data, 1<<20, &etag)
	ref := refFor(data, "big.gguf")
	ref.URL = srv.URL + "/big.gguf"
	dir := t.TempDir()
	_, err := Download(context.Background(), srv.Client(), ref, dir, nil)
	if err == nil || !strings.Contains(err.Error(), "run it again to resume") {
		t.Fatalf("first attempt: %v", err)
	}
	st, _ := os.Stat(filepath.Join(dir, "big.gguf.part"))
	if st == nil || st.Size() != 1<<20 {
		t.Fatalf("partial file: %+v", st)
	}
	var last DownloadProgress
	path, err := Download(context.Background(), srv.Client(), ref, dir, func(p DownloadProgress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if len(got) != len(data) || calls.Load() != 2 || last.Done != int64(len(data)) || last.Total != int64(len(data)) {
		t.Fatalf("resumed: %d bytes, %d calls, progress %+v", len(got), calls.Load(), last)
	}
	if _, err := os.Stat(path + ".part"); !os.IsNotExist(err) {
		t.Error("partial file left behind")
	}
}

func TestDownloadRestartsWhenTheRemoteFileChanged(t *testing.T) {
	data := make([]byte, 1<<20)
	var etag atomic.Value
	etag.Store(`"v1"`)
	srv, _ := flakyServer(t, data, 1<<19, &etag)
	ref := refFor(data, "m.gguf")
	ref.URL = srv.URL + "/m.gguf"
	dir := t.TempDir()
	Download(context.Background(), srv.Client(), ref, dir, nil)
	etag.Store(`"v2"`) // a new release was published under the same name
	path, err := Download(context.Background(), srv.Client(), ref, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); len(got) != len(data) {
		t.Fatalf("%d bytes", len(got))
	}
}

func TestDownloadRejectsAWrongFile(t *testing.T) {
	data := []byte("this is not the model you are looking for")
	var etag atomic.Value
	etag.Store(`"x"`)
	srv, _ := flakyServer(t, data, 0, &etag)
	ref := FileRef{Name: "m.gguf", URL: srv.URL, Size: int64(len(data)), SHA256: strings.Repeat("ab", 32)}
	dir := t.TempDir()
	_, err := Download(context.Background(), srv.Client(), ref, dir, nil)
	if err == nil || !errors.Is(err, ErrIntegrity) || !strings.Contains(err.Error(), "the server sent a different file; it was deleted") {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestDownloadWithoutNetwork(t *testing.T) {
	ref := FileRef{Name: "m.gguf", URL: "http://127.0.0.1:1/m.gguf"}
	_, err := Download(context.Background(), nil, ref, t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "cannot reach 127.0.0.1:1 — check the internet connection") {
		t.Fatalf("err = %v", err)
	}
}

func TestFindOllamaVisionModels(t *testing.T) {
	store := t.TempDir()
	blob := func(content string) string {
		s := sha256.Sum256([]byte(content))
		d := "sha256:" + hex.EncodeToString(s[:])
		os.MkdirAll(filepath.Join(store, "blobs"), 0o755)
		os.WriteFile(filepath.Join(store, "blobs", strings.Replace(d, ":", "-", 1)), []byte(content), 0o644)
		return d
	}
	manifest := func(name, tag string, layers map[string]string) {
		dir := filepath.Join(store, "manifests", "registry.ollama.ai", "library", name)
		os.MkdirAll(dir, 0o755)
		var parts []string
		for mt, d := range layers {
			parts = append(parts, fmt.Sprintf(`{"mediaType": %q, "digest": %q, "size": 1}`, mt, d))
		}
		os.WriteFile(filepath.Join(dir, tag), []byte(`{"schemaVersion": 2, "layers": [`+strings.Join(parts, ",")+`]}`), 0o644)
	}
	manifest("qwen2.5vl", "7b", map[string]string{"application/vnd.ollama.image.model": blob("m1"), "application/vnd.ollama.image.projector": blob("p1")})
	manifest("llama3.2", "3b", map[string]string{"application/vnd.ollama.image.model": blob("m2")}) // text only
	manifest("broken", "latest", map[string]string{"application/vnd.ollama.image.model": "sha256:missing", "application/vnd.ollama.image.projector": blob("p2")})
	found := FindOllama(store)
	if len(found) != 1 || found[0].Name != "qwen2.5vl:7b" || !strings.HasSuffix(found[0].Projector, "sha256-"+strings.TrimPrefix(blob("p1"), "sha256:")) {
		t.Fatalf("found = %+v", found)
	}
}

func TestFindInFolder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"Model-Q4_K_M.gguf", "mmproj-Model-F16.gguf", "notes.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	found := FindInFolder(dir)
	if len(found) != 1 || found[0].Name != "Model-Q4_K_M" || filepath.Base(found[0].Projector) != "mmproj-Model-F16.gguf" {
		t.Fatalf("%+v", found)
	}
}

func TestCatalogue(t *testing.T) {
	cat, err := Catalogue()
	if err != nil || len(cat) < 3 {
		t.Fatalf("%d entries: %v", len(cat), err)
	}
	e, v, err := Find(cat, "internvl3-8b:Q4_K_M")
	if err != nil || e.Name != "InternVL3-8B" || v.Projector.Name == "" || e.Source == "" || e.Licence == "" {
		t.Fatalf("%+v %+v %v", e, v, err)
	}
	if _, _, err := Find(cat, "nope"); err == nil {
		t.Error("found a model that is not there")
	}
}

func TestSizeWindowFromPublishedSize(t *testing.T) {
	for _, tc := range []struct {
		published string
		lo, hi    int64
		ok        bool
	}{
		{"1.89 GB", 1_885_000_000, 1_895_000_000, true},
		{"628 MB", 627_500_000, 628_500_000, true},
		{"2.5 GB", 2_450_000_000, 2_550_000_000, true},
		{"", 0, 0, false},
		{"big", 0, 0, false},
		{"3 parsecs", 0, 0, false},
	} {
		lo, hi, ok := FileRef{SizePublished: tc.published}.SizeWindow()
		if lo != tc.lo || hi != tc.hi || ok != tc.ok {
			t.Errorf("%q: got %d..%d %v, want %d..%d %v", tc.published, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
	if lo, hi, _ := (FileRef{Size: 42, SizePublished: "1 GB"}).SizeWindow(); lo != 42 || hi != 42 {
		t.Errorf("an exact size wins over the published one: %d..%d", lo, hi)
	}
}

// A catalogue entry with only the publisher's rounded size still catches a
// truncated download before the hash is computed.
func TestTruncationCaughtByPublishedSize(t *testing.T) {
	dir := t.TempDir()
	good := tinyGGUF(t, filepath.Join(dir, "good.gguf"))
	ref := refFor(good, "model.gguf")
	ref.Size, ref.SizePublished = 0, fmt.Sprintf("%.1f kB", float64(len(good))/1e3)
	p := filepath.Join(dir, "model.gguf")
	os.WriteFile(p, good[:len(good)/2], 0o644)
	_, err := Verify(p, &ref, nil)
	if err == nil || !strings.Contains(err.Error(), "is truncated: ") || !strings.Contains(err.Error(), "of about "+ref.SizePublished) {
		t.Fatalf("err = %v", err)
	}
	os.WriteFile(p, good, 0o644)
	if v, err := Verify(p, &ref, nil); err != nil || !v.Known {
		t.Fatalf("the whole file should pass: %+v %v", v, err)
	}
}

// Every catalogue file whose hash is recorded names the page it came from.
func TestCatalogueHashesHaveASource(t *testing.T) {
	cat, err := Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cat {
		for _, v := range e.Variants {
			for _, f := range []FileRef{v.Model, v.Projector} {
				if f.SHA256 != "" && (len(f.SHA256) != 64 || !strings.HasPrefix(f.Checked, "https://")) {
					t.Errorf("%s %s: hash %q without a source page", e.ID, f.Name, f.SHA256)
				}
				if f.SizePublished != "" {
					if _, _, ok := f.SizeWindow(); !ok {
						t.Errorf("%s %s: size %q does not parse", e.ID, f.Name, f.SizePublished)
					}
				}
			}
		}
	}
}

// A hub laid out by the test: one repository listing with LFS hashes.
func TestRefreshFromHub(t *testing.T) {
	sumA := strings.Repeat("a1", 32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/models/acme/vision-GGUF/tree/main" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `[{"type":"file","path":"README.md","size":900},
			{"type":"file","path":"vision-Q8_0.gguf","size":1890123456,"lfs":{"oid":%q,"size":1890123456,"pointerSize":135}},
			{"type":"file","path":"mmproj-f16.gguf","size":700000000,"lfs":{"oid":%q,"size":700000000,"pointerSize":135}}]`, sumA, strings.Repeat("b2", 32))
	}))
	defer srv.Close()
	base := "https://huggingface.co/acme/vision-GGUF/resolve/main/"
	cat := []Entry{
		{ID: "vision", Variants: []Variant{{
			Name:      "Q8_0",
			Model:     FileRef{Name: "vision-Q8_0.gguf", URL: base + "vision-Q8_0.gguf", SizePublished: "1.89 GB"},
			Projector: FileRef{Name: "mmproj-f16.gguf", URL: base + "mmproj-f16.gguf", SizePublished: "628 MB"},
		}}},
		{ID: "gone", Variants: []Variant{{Name: "Q4", Model: FileRef{Name: "x.gguf", URL: base + "x.gguf"}, Projector: FileRef{Name: "y", URL: "https://example.com/y"}}}},
	}
	changed, problems, err := RefreshFromHub(context.Background(), srv.Client(), cat, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	m := cat[0].Variants[0].Model
	if changed != 2 || m.Size != 1890123456 || m.SHA256 != sumA || !strings.HasSuffix(m.Checked, "/api/models/acme/vision-GGUF/tree/main") {
		t.Fatalf("changed %d, model %+v", changed, m)
	}
	want := []string{"mmproj-f16.gguf: the hub lists 700000000 bytes, outside the published 628 MB", "x.gguf: acme/vision-GGUF has no file x.gguf", "y: https://example.com/y is not a Hugging Face download address"}
	if len(problems) != len(want) {
		t.Fatalf("problems = %q", problems)
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d = %q, want it to start with %q", i, problems[i], w)
		}
	}
}
