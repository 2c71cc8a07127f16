// Package worker is the vision engine's child process (`shoebox worker`) and
// the cgo edge of the embedded llama.cpp: it serves package protocol on
// stdin/stdout, loads the model and projector as the plan says, turns page
// images into embeddings (mtmd), and samples under the output grammar,
// with the few llama.cpp calls the ollama `llama` package does not wrap.
// Only the worker side of the binary runs it; it links no page reader and
// no field rules, so a crash in llama.cpp never takes the app's data down.
package worker
