package models

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/shoebox-app/shoebox/internal/envvars"
)

// Found is a vision model already on this machine: a model file and its projector.
type Found struct {
	Name      string `json:"name"`
	Model     string `json:"model"`
	Projector string `json:"projector"`
	Where     string `json:"where"` // "ollama" or "folder"
}

// OllamaDir is the user's Ollama model store ($OLLAMA_MODELS or ~/.ollama/models).
func OllamaDir() string {
	if d := envvars.OllamaModels.Get(); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".ollama", "models")
}

type ollamaManifest struct {
	Layers []struct {
		MediaType string `json:"mediaType"`
		Digest    string `json:"digest"`
	} `json:"layers"`
}

// FindOllama lists the vision models in an Ollama store: manifests whose
// layers name both a model and a projector blob that exist. Nothing is copied.
func FindOllama(store string) []Found {
	var out []Found
	root := filepath.Join(store, "manifests")
	// A store that cannot be walked offers nothing: the walk reports no error.
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		var m ollamaManifest
		if json.Unmarshal(data, &m) != nil {
			return nil
		}
		var model, proj string
		for _, l := range m.Layers {
			blob := filepath.Join(store, "blobs", strings.Replace(l.Digest, ":", "-", 1))
			switch l.MediaType {
			case "application/vnd.ollama.image.model":
				model = blob
			case "application/vnd.ollama.image.projector":
				proj = blob
			}
		}
		if model == "" || proj == "" || !exists(model) || !exists(proj) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		name := rel
		if len(parts) >= 2 { // host/namespace/model/tag
			name = parts[len(parts)-2] + ":" + parts[len(parts)-1]
		}
		out = append(out, Found{Name: name, Model: model, Projector: proj, Where: "ollama"})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FindInFolder pairs GGUF models with projectors in a folder: a file whose
// name starts with "mmproj" is the projector of the other GGUF files there.
func FindInFolder(dir string) []Found {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var models, projs []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(strings.ToLower(n), ".gguf") {
			continue
		}
		if strings.HasPrefix(strings.ToLower(n), "mmproj") {
			projs = append(projs, filepath.Join(dir, n))
		} else {
			models = append(models, filepath.Join(dir, n))
		}
	}
	if len(projs) == 0 {
		return nil
	}
	sort.Strings(models)
	var out []Found
	for _, m := range models {
		out = append(out, Found{Name: strings.TrimSuffix(filepath.Base(m), ".gguf"), Model: m, Projector: projs[0], Where: "folder"})
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
