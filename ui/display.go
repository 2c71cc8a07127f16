package ui

import "strings"

// noDisplay says why the window cannot open on this machine, or "" when it
// may. On X11 and Wayland desktops the session names its display in the
// environment; without one (an SSH login, a server, a container) GLFW
// panics deep inside Fyne, so the app says so first and points to the
// commands that need no window.
func noDisplay(goos string, getenv func(string) string) string {
	switch goos {
	case "windows", "darwin", "android", "ios", "js":
		return ""
	}
	if strings.TrimSpace(getenv("DISPLAY")) != "" || strings.TrimSpace(getenv("WAYLAND_DISPLAY")) != "" {
		return ""
	}
	return "no graphical display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset: " +
		"an SSH session or a server?). The command-line tools work without one: shoebox help"
}
