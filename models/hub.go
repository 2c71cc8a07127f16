package models

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// hubFile is one file of a Hugging Face repository listing
// (GET /api/models/{owner}/{repo}/tree/{revision}); lfs.oid is the SHA-256
// of a large file's contents.
type hubFile struct {
	Type string `json:"type"`
	Path string `json:"path"`
	Size int64  `json:"size"`
	LFS  *struct {
		OID  string `json:"oid"`
		Size int64  `json:"size"`
	} `json:"lfs"`
}

// RefreshFromHub records the exact byte count and SHA-256 of every
// catalogue file hosted on a Hugging Face repository, from the hub's file
// listing (apiBase is https://huggingface.co, or a test server). It returns
// how many files changed and, per file, anything it could not record. The
// catalogue sizes and hashes cannot be read from a machine without network;
// this makes filling them one command where there is one.
func RefreshFromHub(ctx context.Context, client *http.Client, cat []Entry, apiBase string) (changed int, problems []string, err error) {
	if client == nil {
		client = http.DefaultClient
	}
	listings := map[string]map[string]hubFile{} // repo -> path -> file
	listing := func(repo string) (map[string]hubFile, error) {
		if l, ok := listings[repo]; ok {
			return l, nil
		}
		u := strings.TrimRight(apiBase, "/") + "/api/models/" + repo + "/tree/main"
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("cannot reach the model hub: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s: the hub answered %s", repo, resp.Status)
		}
		var files []hubFile
		if err := json.NewDecoder(resp.Body).Decode(&files); err != nil {
			return nil, fmt.Errorf("%s: the hub's file list is not JSON: %w", repo, err)
		}
		l := map[string]hubFile{}
		for _, f := range files {
			l[f.Path] = f
		}
		listings[repo] = l
		return l, nil
	}
	for ei := range cat {
		for vi := range cat[ei].Variants {
			v := &cat[ei].Variants[vi]
			for _, f := range []*FileRef{&v.Model, &v.Projector} {
				repo, path, ok := hubPath(f.URL)
				if !ok {
					problems = append(problems, fmt.Sprintf("%s: %s is not a Hugging Face download address", f.Name, f.URL))
					continue
				}
				l, err := listing(repo)
				if err != nil {
					return changed, problems, err
				}
				hf, ok := l[path]
				if !ok {
					problems = append(problems, fmt.Sprintf("%s: %s has no file %s", f.Name, repo, path))
					continue
				}
				if hf.LFS == nil || len(hf.LFS.OID) != 64 {
					problems = append(problems, fmt.Sprintf("%s: the hub lists no SHA-256 for it", f.Name))
					continue
				}
				size, sum := hf.LFS.Size, hf.LFS.OID
				if lo, hi, ok := f.SizeWindow(); ok && f.Size == 0 && (size < lo || size > hi) {
					problems = append(problems, fmt.Sprintf("%s: the hub lists %d bytes, outside the published %s — check the page", f.Name, size, f.SizePublished))
				}
				if f.SHA256 != "" && f.SHA256 != sum {
					problems = append(problems, fmt.Sprintf("%s: the hub's SHA-256 %s… differs from the recorded %s… — the file was replaced upstream", f.Name, sum[:12], f.SHA256[:12]))
				}
				if f.Size != size || f.SHA256 != sum {
					f.Size, f.SHA256 = size, sum
					f.Checked = strings.TrimRight(apiBase, "/") + "/api/models/" + repo + "/tree/main"
					changed++
				}
			}
		}
	}
	return changed, problems, nil
}

// hubPath splits https://huggingface.co/OWNER/REPO/resolve/main/PATH.
func hubPath(raw string) (repo, path string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", false
	}
	parts := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 5)
	if len(parts) < 5 || parts[2] != "resolve" {
		return "", "", false
	}
	return parts[0] + "/" + parts[1], parts[4], true
}
