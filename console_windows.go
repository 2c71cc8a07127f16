package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// The Windows build is a GUI program (no console window opens beside the
// app), so a command typed in a Command Prompt or PowerShell would print
// nowhere: it borrows the console it was started from. Output sent to a
// file or a pipe keeps its handles.
func init() {
	if len(os.Args) < 2 {
		return
	}
	attach := windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")
	const attachParentProcess = ^uintptr(0)
	if ok, _, _ := attach.Call(attachParentProcess); ok == 0 {
		return // started from Explorer or a shortcut: no console to borrow
	}
	reopen := func(std uint32, name string, flag int, f **os.File) {
		if h, err := windows.GetStdHandle(std); err == nil && h != 0 && h != windows.InvalidHandle {
			return
		}
		if c, err := os.OpenFile(name, flag, 0); err == nil {
			*f = c
		}
	}
	reopen(windows.STD_OUTPUT_HANDLE, "CONOUT$", os.O_WRONLY, &os.Stdout)
	reopen(windows.STD_ERROR_HANDLE, "CONOUT$", os.O_WRONLY, &os.Stderr)
	reopen(windows.STD_INPUT_HANDLE, "CONIN$", os.O_RDONLY, &os.Stdin)
}
