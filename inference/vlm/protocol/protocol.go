package protocol

// The worker protocol: one JSON object per line on the worker's stdin
// (requests) and stdout (responses), each carrying the protocol version.
// llama.cpp's own logging goes to stderr, which the parent keeps the tail
// of for crash reports.

// ProtocolVersion changes whenever a field changes meaning.
// 2: extract carries several pages, read together as parallel sequences.
// 3: a page names the chat template to fall back on; an empty System has no turn.
const ProtocolVersion = 3

// WorkerRequest is sent to `shoebox worker`.
type WorkerRequest struct {
	V  int    `json:"v"`
	ID int64  `json:"id"`
	Op string `json:"op"` // "load", "canary", "extract", "ping"

	// load
	Model          string    `json:"model,omitempty"`
	Projector      string    `json:"projector,omitempty"`
	Threads        int       `json:"threads,omitempty"`
	GPULayers      int       `json:"gpu_layers,omitempty"`
	MainGPU        int       `json:"main_gpu,omitempty"`
	TensorSplit    []float32 `json:"tensor_split,omitempty"`
	Context        int       `json:"context,omitempty"`  // tokens per sequence
	Parallel       int       `json:"parallel,omitempty"` // sequences one context holds; 0 means 1
	Batch          int       `json:"batch,omitempty"`
	FlashAttention string    `json:"flash_attention,omitempty"`
	KVType         string    `json:"kv_type,omitempty"`
	ProjectorOnGPU bool      `json:"projector_on_gpu,omitempty"`

	// extract: up to Parallel pages, each its own sequence in the context,
	// decoded together one token per page per step.
	Pages     []PageRequest `json:"pages,omitempty"`
	Schema    string        `json:"schema,omitempty"` // JSON schema every output must fit
	MaxTokens int           `json:"max_tokens,omitempty"`
}

// PageRequest is one page of an extract request. System and User are laid
// out with the model's chat template, the image first in the user's turn;
// when llama.cpp does not know the model's template, with the one Template
// names (a llama.cpp template name such as "chatml"), else plainly as
// "System\n<image>\nUser\n". An empty System gives no system turn.
type PageRequest struct {
	Image    []byte `json:"image,omitempty"` // PNG or JPEG bytes of the page
	System   string `json:"system,omitempty"`
	User     string `json:"user,omitempty"`
	Template string `json:"template,omitempty"`
}

// WorkerResponse answers one request.
type WorkerResponse struct {
	V     int    `json:"v"`
	ID    int64  `json:"id"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Output and BadLogits answer the canary: its text, and whether any
	// step saw NaN or infinite logits.
	Output    string  `json:"output,omitempty"`
	BadLogits bool    `json:"bad_logits,omitempty"`
	LoadMS    float64 `json:"load_ms,omitempty"`
	// Pages answer an extract request's pages, in order.
	Pages []PageResponse `json:"pages,omitempty"`
}

// PageResponse is one page's reading; Error is set when this page failed
// and the others of its request did not.
type PageResponse struct {
	Error     string  `json:"error,omitempty"`
	Output    string  `json:"output,omitempty"`
	Pieces    []Piece `json:"pieces,omitempty"` // the output token by token, with probabilities
	BadLogits bool    `json:"bad_logits,omitempty"`
	// EncodeMS is the vision encoder's time on the image; PrefillMS the
	// rest of the prompt's evaluation (image embeddings and text); DecodeMS
	// the time from the first decode step of its request until its last
	// token, shared with the pages decoded beside it.
	EncodeMS     float64 `json:"encode_ms,omitempty"`
	PrefillMS    float64 `json:"prefill_ms,omitempty"`
	DecodeMS     float64 `json:"decode_ms,omitempty"`
	PromptTokens int     `json:"prompt_tokens,omitempty"`
	// FullGrammarSteps counts the tokens for which the model's favourite
	// broke the grammar, so the grammar ran over the whole vocabulary.
	FullGrammarSteps int `json:"full_grammar_steps,omitempty"`
	// GrammarRescueMS is the time spent finding the best allowed token
	// when the favourite was refused (included in DecodeMS).
	GrammarRescueMS float64 `json:"grammar_rescue_ms,omitempty"`
	// ForwardMS is the part of DecodeMS inside llama.cpp's decode steps
	// (shared with the pages decoded beside it).
	ForwardMS float64 `json:"forward_ms,omitempty"`
}

// Piece is one generated token's text and the probability the model gave it.
type Piece struct {
	Text string  `json:"t"`
	P    float32 `json:"p"`
}
