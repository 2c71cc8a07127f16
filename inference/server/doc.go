// Package server owns the engine that reads receipts on an inference
// server on another machine (or this one): vLLM, llama.cpp's llama-server,
// Ollama — anything that speaks OpenAI's /v1/chat/completions, or Ollama's
// native /api/chat. It sends the page image (base64), the same prompts as
// the embedded engine with the page's OCR text as the hint
// (vlm.BuildPrompt) and the output schema (assets/prompts/schema.json) as
// a JSON-schema response format, at temperature 0, and holds the answer to
// the same guards: the schema, the refusal retry with the strict prompt,
// repeated-character output (vlm.JudgeOutput), parsing through
// vlm.ParseModelJSON and grounding on the page's OCR words.
//
// It owns the HTTP side too: base URL, model, API key (sent only in the
// Authorization header; never in a message, log or error), TLS with the
// system's roots or a given CA file, a cap on pages in flight, a
// per-request timeout and retries with backoff on 429, 5xx and lost
// connections. A page the server cannot read now — unreachable, overloaded,
// refusing the key — comes back as inference.ErrUnavailable, so the
// pipeline queues it again instead of failing it.
//
// It links no llama.cpp and no page reader.
package server
