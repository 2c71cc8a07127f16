// Package models knows the vision models Shoebox can run: the catalogue
// (embedded from assets), the integrity check run before every load (size,
// SHA-256 with a cache, GGUF structure), downloads with resume, and the
// models a user already has in an Ollama store or a folder.
package models

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/internal/envvars"
)

// FileRef is one downloadable file.
type FileRef struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Size   int64  `json:"size,omitempty"`   // exact bytes, 0 when not recorded
	SHA256 string `json:"sha256,omitempty"` // hex, "" when not recorded
	// SizePublished is the size as the publisher's page prints it ("1.89 GB",
	// decimal units) when the exact byte count is not recorded: a file
	// outside its rounding is truncated or another file.
	SizePublished string `json:"size_published,omitempty"`
	// Checked is the page the hash and size were copied from.
	Checked string `json:"checked,omitempty"`
}

// Bytes is the file's size: exact when recorded, else the published one.
func (f FileRef) Bytes() int64 {
	if f.Size > 0 {
		return f.Size
	}
	lo, hi, ok := f.SizeWindow()
	if !ok {
		return 0
	}
	return (lo + hi) / 2
}

// SizeWindow is the range of byte counts the file may have: exactly Size,
// or what rounds to SizePublished ("1.89 GB" is 1,885,000,000 to
// 1,895,000,000 bytes).
func (f FileRef) SizeWindow() (lo, hi int64, ok bool) {
	if f.Size > 0 {
		return f.Size, f.Size, true
	}
	num, unit, found := strings.Cut(strings.TrimSpace(f.SizePublished), " ")
	if !found {
		return 0, 0, false
	}
	mult := map[string]float64{"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if mult == 0 || err != nil || v <= 0 {
		return 0, 0, false
	}
	half := 0.5
	if i := strings.IndexByte(num, '.'); i >= 0 {
		half /= math.Pow(10, float64(len(num)-i-1))
	}
	return int64(math.Floor((v - half) * mult)), int64(math.Ceil((v + half) * mult)), true
}

// Variant is one weights precision of a model with its projector.
type Variant struct {
	Name      string  `json:"name"` // Q4_K_M, Q8_0, F16, BF16
	Model     FileRef `json:"model"`
	Projector FileRef `json:"projector"`
}

// Entry is one catalogue model.
type Entry struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Family  string `json:"family"` // prompt family: qwen3vl, qwen25vl, internvl, minicpmv, smolvlm, gemma3 (assets/prompts/families.json)
	Licence string `json:"licence"`
	Source  string `json:"source"` // the publisher page the data comes from
	About   string `json:"about"`  // what it is good at, in plain words
	// ParamsB and ProjectorParamsB are the language model's and the vision
	// encoder's parameters in billions, from the model card: for memory
	// estimates while a file's size is not recorded.
	ParamsB          float64   `json:"params_b,omitempty"`
	ProjectorParamsB float64   `json:"projector_params_b,omitempty"`
	Layers           int       `json:"layers"`
	EmbedDim         int       `json:"embed_dim"`
	HeadsKV          int       `json:"heads_kv"`
	HeadDim          int       `json:"head_dim"`
	Variants         []Variant `json:"variants"`
	EngineStatus     string    `json:"engine_status"` // "supported", or why not yet
}

// Catalogue is the embedded list of models.
func Catalogue() ([]Entry, error) {
	var out []Entry
	if err := json.Unmarshal(assets.Catalogue, &out); err != nil {
		return nil, fmt.Errorf("the model catalogue is damaged: %w", err)
	}
	return out, nil
}

// Find returns the catalogue entry and variant for "id" or "id:variant".
func Find(cat []Entry, ref string) (Entry, Variant, error) {
	id, variant := ref, ""
	for i := len(ref) - 1; i >= 0; i-- {
		if ref[i] == ':' {
			id, variant = ref[:i], ref[i+1:]
			break
		}
	}
	for _, e := range cat {
		if e.ID != id {
			continue
		}
		if len(e.Variants) == 0 {
			return e, Variant{}, fmt.Errorf("%s lists no files", id)
		}
		if variant == "" {
			return e, e.Variants[0], nil
		}
		for _, v := range e.Variants {
			if v.Name == variant {
				return e, v, nil
			}
		}
		return e, Variant{}, fmt.Errorf("%s has no variant %s", id, variant)
	}
	return Entry{}, Variant{}, fmt.Errorf("no model %q in the catalogue (shoebox models list shows them)", id)
}

// Dir is where downloaded models go: $SHOEBOX_MODELS, else dataDir/models.
func Dir(dataDir string) string {
	if d := envvars.Models.Get(); d != "" {
		return d
	}
	return filepath.Join(dataDir, "models")
}

// DownloadDir is Dir of a data folder that may be unknown (dataErr): with
// $SHOEBOX_MODELS set, none is needed.
func DownloadDir(dataDir string, dataErr error) (string, error) {
	if dataErr != nil && envvars.Models.Get() == "" {
		return "", dataErr
	}
	return Dir(dataDir), nil
}

// RefByName finds the catalogue record of a model or projector file by its
// file name, so a file the user points at is checked against its size and
// hash when the catalogue knows it. nil when it does not.
func RefByName(cat []Entry, name string) *FileRef {
	for _, e := range cat {
		for _, v := range e.Variants {
			for _, r := range []FileRef{v.Model, v.Projector} {
				if strings.EqualFold(r.Name, name) {
					return &r
				}
			}
		}
	}
	return nil
}
