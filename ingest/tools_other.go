//go:build !windows

package ingest

import "fmt"

func missingTool(name string) error {
	return &missingToolError{fmt.Sprintf("%s is not installed (run make deps, or apt-get install %s)", name, toolPackage(name))}
}
