package ui

import "fyne.io/fyne/v2"

// onMain runs f on the goroutine that owns the widgets, Fyne's event loop.
// Every goroutine the window starts (page loads, batch progress, the save
// after a pause in typing, engine switches, downloads, passing notices)
// hands its widget updates through here and touches no widget itself.
//
// The package's tests swap in a queue that the test goroutine runs
// (settle in mainthread_test.go): Fyne's test driver runs fyne.Do on the
// calling goroutine, so the update would race whatever the test is doing.
var onMain = fyne.Do
