// Package assets holds what Shoebox embeds in its binary: the app icon, and
// (as the engines land) the model catalogue and prompt text, so a single
// executable carries everything it needs to run offline.
package assets

import _ "embed"

// Icon is the application icon, a 512×512 PNG drawn by icon_gen.go.
//
//go:embed icon.png
var Icon []byte
