package ppocr

// Library is ONNX Runtime's DLL, from onnxruntime-node's
// bin/napi-v6/win32/x64 (the same pinned npm package as on Linux).
const Library = "onnxruntime.dll"
