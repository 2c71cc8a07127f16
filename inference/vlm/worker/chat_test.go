package worker

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/llama"

	"github.com/shoebox-app/shoebox/internal/testmodel"
)

func TestChatTemplates(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tiny.gguf")
	if err := testmodel.WriteLLM(path, testmodel.Tiny); err != nil {
		t.Fatal(err)
	}
	llama.BackendInit()
	m, err := llama.LoadModelFromFile(path, llama.ModelParams{VocabOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer llama.FreeModel(m)
	if got := ChatTemplate(m); !strings.Contains(got, "messages") {
		t.Fatalf("template = %q", got)
	}
	// The tiny model's own template is not one llama.cpp knows: plain layout.
	if _, ok := ApplyChatTemplate(m, []Message{{"user", "hi"}}, ""); ok {
		t.Error("an unknown template was applied")
	}
	// With the family's template named, that one lays the turns out: Gemma's
	// has no system turn, so the system prompt opens the user's.
	got, ok := ApplyChatTemplate(m, []Message{{"system", "Be exact."}, {"user", "hi"}}, "gemma")
	if want := "<start_of_turn>user\nBe exact.\n\nhi<end_of_turn>\n<start_of_turn>model\n"; !ok || got != want {
		t.Errorf("gemma fallback = %q (%v), want %q", got, ok, want)
	}

	// A ChatML model (Qwen's, InternVL's) gets the real layout.
	chatml := filepath.Join(dir, "chatml.gguf")
	tm := testmodel.Tiny
	tm.ChatTemplate = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
	if err := testmodel.WriteLLM(chatml, tm); err != nil {
		t.Fatal(err)
	}
	m2, err := llama.LoadModelFromFile(chatml, llama.ModelParams{VocabOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer llama.FreeModel(m2)
	got, ok = ApplyChatTemplate(m2, []Message{{"system", "Be exact."}, {"user", ImageMarker + "\nRead this receipt."}}, "gemma")
	want := "<|im_start|>system\nBe exact.<|im_end|>\n<|im_start|>user\n<__media__>\nRead this receipt.<|im_end|>\n<|im_start|>assistant\n"
	if !ok || got != want {
		t.Fatalf("ChatML prompt = %q (%v)\nwant %q", got, ok, want)
	}
}
