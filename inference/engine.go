package inference

import (
	"context"
	"errors"
	"image"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// Page is what an engine reads: the page image, the PDF text layer when the
// page has one, and OCR words when they were already read (the vision
// engine uses them as a hint and to ground its answers).
type Page struct {
	Image image.Image
	Index int    // page number from 0, for boxes
	Text  string // PDF text layer; "" for scans and photos
	Words []Word
}

// Word is one OCR word with its box on the page and Tesseract's confidence (0–1).
type Word struct {
	Text string      `json:"text"`
	Box  receipt.Box `json:"box"`
	Conf float64     `json:"conf"`
	Line int         `json:"line"` // words with the same Line are on one text line
	// Alts are the reader's second choices for some of the word's
	// characters, where it has them (PP-OCR).
	Alts []Alt `json:"alts,omitempty"`
}

// Alt is a reader's second choice for one character of a word: "MINL"
// with I at 3 (0.34) is MINI read a little less surely.
type Alt struct {
	At   int     `json:"at"`   // the character's index in the word's text, in runes
	Text string  `json:"text"` // one letter or digit
	P    float64 `json:"p"`    // the reader's probability for it
}

// Timings are where an extraction's time went.
type Timings struct {
	Load         time.Duration `json:"load"`
	Preprocess   time.Duration `json:"preprocess"`
	OCR          time.Duration `json:"ocr"`
	Reread       time.Duration `json:"reread,omitempty"`       // date-shaped lines read again, alone
	ImageEncode  time.Duration `json:"image_encode,omitempty"` // the vision encoder
	Prefill      time.Duration `json:"prefill"`                // the prompt and the image's embeddings
	Decode       time.Duration `json:"decode"`
	Total        time.Duration `json:"total"`
	PromptTokens int           `json:"prompt_tokens,omitempty"`
	OutputTokens int           `json:"output_tokens,omitempty"`
	TokensPerSec float64       `json:"tokens_per_sec,omitempty"`
	// Batch is how many pages the vision engine read together with this
	// one, itself included.
	Batch int `json:"batch,omitempty"`
	// FullGrammarSteps: output tokens for which the output grammar had to
	// be run over the whole vocabulary (the model's favourite broke it).
	FullGrammarSteps int `json:"full_grammar_steps,omitempty"`
	// GrammarRescue is the part of Decode spent finding the best allowed
	// token when the model's favourite broke the grammar.
	GrammarRescue time.Duration `json:"grammar_rescue,omitempty"`
	// Forward is the part of Decode inside llama.cpp's decode steps; the
	// rest (sampling, grammar, token text) is the engine's overhead.
	Forward time.Duration `json:"forward,omitempty"`
}

// Result is an engine's reading of one page.
type Result struct {
	Receipt receipt.Receipt `json:"receipt"`
	Raw     string          `json:"raw"`   // the engine's own output: OCR text or model JSON
	Words   []Word          `json:"words"` // OCR words, for grounding and the review UI
	Timings Timings         `json:"timings"`
	Engine  string          `json:"engine"`
}

// Engine reads receipt pages. Implementations must honour ctx cancellation
// and be safe for use by one goroutine at a time; pools run several.
type Engine interface {
	Name() string
	Extract(ctx context.Context, page Page) (Result, error)
	Close() error
}

// ErrUnavailable marks a page that could not be read because what reads it
// — a server on another machine — cannot be reached, is overloaded, or
// refuses this client (address, certificate, key, model): the page is not
// at fault. The pipeline puts its receipt back in the queue, never marks it
// failed, and waits for the engine to be Available again.
var ErrUnavailable = errors.New("the reading server is unavailable")

// Remote is an engine that reads on another machine. Available checks, at
// little cost, that the server answers and would read pages now; the
// pipeline polls it after ErrUnavailable. Where says, for people, where
// pages go (host and model, never a key).
type Remote interface {
	Engine
	Available(ctx context.Context) error
	Where() string
}
