package ingest

import (
	"fmt"
	"strings"
)

// missingTool: the Windows version ships neither poppler nor libheif yet.
func missingTool(name string) error {
	kind := "PDF files"
	if strings.HasPrefix(name, "heif") {
		kind = "HEIC photos"
	}
	return &missingToolError{fmt.Sprintf("this Windows version of Shoebox cannot open %s yet (it lacks %s): save them as JPEG or PNG pictures and add those", kind, name)}
}
