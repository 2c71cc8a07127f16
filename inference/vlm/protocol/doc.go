// Package protocol owns the request/response messages between the vision
// engine and its worker process (one JSON object a line on stdin/stdout),
// so that each side links only what it needs.
package protocol
