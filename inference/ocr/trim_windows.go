package ocr

// trimCHeap does nothing on Windows: its heap has no malloc_trim, and
// glibc's habit of keeping small freed blocks, which trimming undoes on
// Linux, is not its.
func trimCHeap() {}
