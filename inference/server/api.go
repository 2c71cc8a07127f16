package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
)

// chat is one question to the model, in either API's terms.
type chat struct {
	system, user string
	image        []byte // JPEG
	schema       json.RawMessage
	maxTokens    int
	logprobs     bool
}

// answer is the model's reply and what the server said about its cost.
type answer struct {
	text                  string
	pieces                []protocol.Piece // tokens with probabilities, when the server gives them
	truncated             bool             // the answer reached the token limit
	promptTokens, outTok  int
	load, prefill, decode time.Duration // Ollama's native API only
}

// tokenLogprob is a token with its log probability, as both APIs write it.
type tokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	// Bytes spell the token exactly where its text cannot (a byte of a
	// character split between tokens).
	Bytes []int `json:"bytes"`
}

// piecesOf maps per-token log probabilities to the pieces ParseModelJSON
// takes confidences from, each piece the stretch of text its token wrote.
// A token that is a lone byte of a character split between tokens comes
// as U+FFFD (Ollama's bytes too); each such mark stands for one byte. When
// the tokens cannot be laid along the text, none are returned and every
// field gets the neutral 0.5.
func piecesOf(text string, lps []tokenLogprob) []protocol.Piece {
	if len(lps) == 0 {
		return nil
	}
	out := make([]protocol.Piece, 0, len(lps))
	off := 0
	for _, lp := range lps {
		tok := lp.Token
		if len(lp.Bytes) > 0 {
			raw := make([]byte, len(lp.Bytes))
			for j, c := range lp.Bytes {
				raw[j] = byte(c)
			}
			tok = string(raw)
		}
		n := len(tok)
		if !strings.HasPrefix(text[off:], tok) {
			if strings.Trim(tok, "\uFFFD") != "" {
				return nil
			}
			n = strings.Count(tok, "\uFFFD")
		}
		if off+n > len(text) {
			return nil
		}
		out = append(out, protocol.Piece{Text: text[off : off+n], P: float32(math.Exp(lp.Logprob))})
		off += n
	}
	if off != len(text) {
		return nil
	}
	return out
}

// openAIChat asks through POST /v1/chat/completions: the image as a base64
// data URL, the schema as response_format json_schema.
func (e *Engine) openAIChat(ctx context.Context, c chat) (answer, error) {
	body := map[string]any{
		"model": e.opt.Model,
		"messages": []any{
			map[string]any{"role": "system", "content": c.system},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": c.user},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(c.image)}},
			}},
		},
		"temperature":     0,
		"max_tokens":      c.maxTokens,
		"stream":          false,
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "receipt", "schema": c.schema}},
	}
	if c.logprobs {
		body["logprobs"] = true
	}
	var resp struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
				Refusal string  `json:"refusal"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
			Logprobs     *struct {
				Content []tokenLogprob `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := e.do(ctx, "POST", "/v1/chat/completions", body, &resp); err != nil {
		return answer{}, err
	}
	if len(resp.Choices) == 0 {
		return answer{}, errors.New("the server answered with no choices")
	}
	ch := resp.Choices[0]
	a := answer{promptTokens: resp.Usage.PromptTokens, outTok: resp.Usage.CompletionTokens, truncated: ch.FinishReason == "length"}
	switch {
	case ch.Message.Content != nil:
		a.text = *ch.Message.Content
	case ch.Message.Refusal != "":
		// OpenAI's own refusal field: shaped as a refusal so the strict
		// prompt is tried, as for a refusal written inside the JSON.
		a.text = `{"supplier_name": ` + quote(ch.Message.Refusal) + `}`
	}
	if ch.Logprobs != nil {
		a.pieces = piecesOf(a.text, ch.Logprobs.Content)
	}
	return a, nil
}

// ollamaChat asks through Ollama's POST /api/chat: the image in images,
// the schema as format; Ollama also says where the time went.
func (e *Engine) ollamaChat(ctx context.Context, c chat) (answer, error) {
	body := map[string]any{
		"model": e.opt.Model,
		"messages": []any{
			map[string]any{"role": "system", "content": c.system},
			map[string]any{"role": "user", "content": c.user, "images": []string{base64.StdEncoding.EncodeToString(c.image)}},
		},
		"format":  c.schema,
		"stream":  false,
		"options": map[string]any{"temperature": 0, "num_predict": c.maxTokens},
	}
	if c.logprobs {
		body["logprobs"] = true
	}
	var resp struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		Logprobs           []tokenLogprob `json:"logprobs"`
		DoneReason         string         `json:"done_reason"`
		LoadDuration       time.Duration  `json:"load_duration"`
		PromptEvalCount    int            `json:"prompt_eval_count"`
		PromptEvalDuration time.Duration  `json:"prompt_eval_duration"`
		EvalCount          int            `json:"eval_count"`
		EvalDuration       time.Duration  `json:"eval_duration"`
	}
	if err := e.do(ctx, "POST", "/api/chat", body, &resp); err != nil {
		return answer{}, err
	}
	return answer{
		text: resp.Message.Content, pieces: piecesOf(resp.Message.Content, resp.Logprobs),
		promptTokens: resp.PromptEvalCount, outTok: resp.EvalCount, truncated: resp.DoneReason == "length",
		load: resp.LoadDuration, prefill: resp.PromptEvalDuration, decode: resp.EvalDuration,
	}, nil
}

// Models lists the models the server offers: /v1/models, or Ollama's
// /api/tags.
func (e *Engine) Models(ctx context.Context) ([]string, error) {
	names, err := e.models(ctx)
	return names, e.classify(ctx, err)
}

func (e *Engine) models(ctx context.Context) ([]string, error) {
	api, err := e.api(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	if api == APIOllama {
		var tags struct {
			Models []struct {
				Name string `json:"name"`
			} `json:"models"`
		}
		err = e.do(ctx, "GET", "/api/tags", nil, &tags)
		for _, m := range tags.Models {
			names = append(names, m.Name)
		}
	} else {
		var list struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		err = e.do(ctx, "GET", "/v1/models", nil, &list)
		for _, m := range list.Data {
			names = append(names, m.ID)
		}
	}
	if err != nil {
		return nil, err
	}
	return names, nil
}

// api is the API this engine speaks: the one chosen, else Ollama's native
// API when /api/tags answers like Ollama (it says where the time goes),
// else OpenAI's. The answer is kept once the server has given it.
func (e *Engine) api(ctx context.Context) (string, error) {
	e.apiMu.Lock()
	defer e.apiMu.Unlock()
	if e.apiFound != "" {
		return e.apiFound, nil
	}
	var tags struct {
		Models *json.RawMessage `json:"models"`
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	err := e.do(ctx, "GET", "/api/tags", nil, &tags)
	var he *httpError
	switch {
	case err == nil && tags.Models != nil:
		e.apiFound = APIOllama
	case err == nil || errors.As(err, &he) && !transient(err):
		e.apiFound = APIOpenAI
	default:
		return "", err
	}
	return e.apiFound, nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
