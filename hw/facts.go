package hw

import (
	"fmt"
	"os"
	"strings"

	"github.com/ollama/ollama/fs/ggml"
)

// FactsFromGGUF reads the planner's model facts from a GGUF model file (and
// its projector, if given): layer count, sizes and head shapes from the
// headers, and the weights variant from the file type. Only headers are read.
func FactsFromGGUF(modelPath, projectorPath string) (ModelFacts, error) {
	f, err := os.Open(modelPath)
	if err != nil {
		return ModelFacts{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ModelFacts{}, err
	}
	g, err := ggml.Decode(f, 0)
	if err != nil {
		return ModelFacts{}, fmt.Errorf("%s is not a readable GGUF model: %w", modelPath, err)
	}
	kv := g.KV()
	facts := ModelFacts{
		Name:     kv.String("general.name", strings.TrimSuffix(st.Name(), ".gguf")),
		Layers:   int(kv.BlockCount()),
		EmbedDim: int(kv.EmbeddingLength()),
		HeadsKV:  int(kv.HeadCountKVMax()),
		HeadDimK: int(kv.EmbeddingHeadCountK()),
		HeadDimV: int(kv.EmbeddingHeadCountV()),
		Variants: []Variant{{Name: variantName(kv), Bytes: uint64(st.Size())}},
	}
	var total, inBlocks uint64
	for _, t := range g.Tensors().Items() {
		total += t.Size()
		if strings.HasPrefix(t.Name, "blk.") {
			inBlocks += t.Size()
		}
	}
	if total > 0 {
		facts.NonLayerFraction = float64(total-inBlocks) / float64(total)
	}
	if facts.Layers == 0 {
		return facts, fmt.Errorf("%s has no transformer blocks in its headers", modelPath)
	}
	if projectorPath != "" {
		pst, err := os.Stat(projectorPath)
		if err != nil {
			return facts, err
		}
		facts.ProjectorBytes = uint64(pst.Size())
	}
	return facts, nil
}

// variantName is the weights' precision from general.file_type; ollama
// reads type 0 (all F32) as unknown.
func variantName(kv ggml.KV) string {
	if _, ok := kv["general.file_type"]; ok && kv.Uint("general.file_type") == 0 {
		return "F32"
	}
	return strings.ToUpper(kv.FileType().String())
}
