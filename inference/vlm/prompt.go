package vlm

import (
	"strings"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
)

// UserPrompt is the user turn that goes with the page image.
const UserPrompt = "Read this receipt. Answer with the JSON only."

// SystemPrompt is the business-context instruction (assets.ReceiptPrompt,
// or ReceiptPromptStrict after a refusal) with the page's own text (PDF
// text layer) or its OCR lines as a hint when there is one. The embedded
// engine and the server engine send the same words.
func SystemPrompt(prompt string, page inference.Page) string {
	var b strings.Builder
	b.WriteString(prompt)
	if page.Text != "" {
		b.WriteString("\nThe document's own text layer reads:\n")
		b.WriteString(page.Text)
	} else if len(page.Words) > 0 {
		b.WriteString("\nOCR of the image (may contain mistakes):\n")
		for _, l := range fields.GroupLines(page.Words) {
			b.WriteString(l.Text)
			b.WriteByte('\n')
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
