//go:build !windows

package ppocr

// Library is ONNX Runtime's shared library, from onnxruntime-node's
// bin/napi-v6/linux/x64.
const Library = "libonnxruntime.so.1"
