// Package ingest turns dropped files and folders into pages: it opens images
// (JPEG, PNG, WebP, TIFF, BMP, HEIC) with EXIF orientation applied, renders
// PDF pages and extracts their text layer, hashes originals, and refuses bad
// or oversized input with a clear reason. It knows nothing about engines.
package ingest
