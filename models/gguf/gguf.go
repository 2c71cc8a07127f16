// Package gguf reads and writes the GGUF file format's headers: metadata
// key/values and tensor descriptions. The reader checks a file's structure
// (magic, version, counts, every tensor inside the file) without loading
// weights; the writer makes small models for tests.
package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Magic is the first four bytes of every GGUF file.
const Magic = "GGUF"

// Value types of metadata.
const (
	TypeUint8   = 0
	TypeInt8    = 1
	TypeUint16  = 2
	TypeInt16   = 3
	TypeUint32  = 4
	TypeInt32   = 5
	TypeFloat32 = 6
	TypeBool    = 7
	TypeString  = 8
	TypeArray   = 9
	TypeUint64  = 10
	TypeInt64   = 11
	TypeFloat64 = 12
)

// TensorType is a ggml tensor type.
type TensorType uint32

// The tensor types Shoebox writes and the common quantizations it reads.
const (
	F32  TensorType = 0
	F16  TensorType = 1
	Q4_0 TensorType = 2
	Q8_0 TensorType = 8
	BF16 TensorType = 30
)

// blockInfo is (elements per block, bytes per block) for each ggml type.
var blockInfo = map[TensorType][2]uint64{
	0: {1, 4}, 1: {1, 2}, 2: {32, 18}, 3: {32, 20}, 6: {32, 22}, 7: {32, 24}, 8: {32, 34}, 9: {32, 36},
	10: {256, 84}, 11: {256, 110}, 12: {256, 144}, 13: {256, 176}, 14: {256, 210}, 15: {256, 292},
	16: {256, 66}, 17: {256, 74}, 18: {256, 98}, 19: {256, 50}, 20: {32, 18}, 21: {256, 110}, 22: {256, 82},
	23: {256, 136}, 24: {1, 1}, 25: {1, 2}, 26: {1, 4}, 27: {1, 8}, 28: {1, 8}, 29: {256, 56}, 30: {1, 2},
	34: {256, 54}, 35: {256, 66}, 39: {32, 17},
}

// Size is the byte size of a tensor of this type with n elements.
func (t TensorType) Size(n uint64) (uint64, error) {
	b, ok := blockInfo[t]
	if !ok {
		return 0, fmt.Errorf("unknown tensor type %d", t)
	}
	if n%b[0] != 0 {
		return 0, fmt.Errorf("%d elements do not fill whole blocks of %d", n, b[0])
	}
	return n / b[0] * b[1], nil
}

// Tensor is one tensor's description.
type Tensor struct {
	Name   string
	Dims   []uint64
	Type   TensorType
	Offset uint64 // from the start of the data section
	Size   uint64
}

// Elements is the product of the dimensions.
func (t Tensor) Elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// File is a GGUF file's header.
type File struct {
	Version    uint32
	KV         map[string]any
	Keys       []string // in file order
	Tensors    []Tensor
	DataOffset uint64 // where tensor data starts
	FileSize   uint64
}

// Limits that stop a damaged header from making the reader allocate wildly.
const (
	maxCount  = 1 << 24
	maxString = 1 << 26
)

// Problem is a structural defect found by Read.
type Problem struct {
	Path   string
	Reason string
}

func (p *Problem) Error() string { return p.Path + ": " + p.Reason }

// Read parses and checks a GGUF file's header: magic, version, counts, and
// that every tensor's data lies within the file.
func Read(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return &Problem{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	r := &reader{r: bufio.NewReaderSize(f, 1<<16)}
	magic := make([]byte, 4)
	if _, err := io.ReadFull(r.r, magic); err != nil {
		return nil, bad("too short to be a GGUF file (%d bytes)", st.Size())
	}
	r.n = uint64(len(magic)) // offsets count from the start of the file
	if string(magic) != Magic {
		return nil, bad("not a GGUF file: it starts with %q, not \"GGUF\"", magic)
	}
	out := &File{KV: map[string]any{}, FileSize: uint64(st.Size())}
	out.Version = r.u32()
	nTensors, nKV := r.u64(), r.u64()
	if r.err != nil {
		return nil, bad("the header is cut off")
	}
	if out.Version < 2 || out.Version > 3 {
		return nil, bad("GGUF version %d is not supported (2 or 3)", out.Version)
	}
	if nTensors > maxCount || nKV > maxCount {
		return nil, bad("the header claims %d tensors and %d metadata entries: damaged", nTensors, nKV)
	}
	for i := uint64(0); i < nKV; i++ {
		key := r.str()
		v := r.value(r.u32(), 0)
		if r.err != nil {
			return nil, bad("metadata entry %d is damaged or cut off: %v", i+1, r.err)
		}
		out.KV[key] = v
		out.Keys = append(out.Keys, key)
	}
	for i := uint64(0); i < nTensors; i++ {
		var t Tensor
		t.Name = r.str()
		nd := r.u32()
		if nd > 8 {
			return nil, bad("tensor %q has %d dimensions: damaged", t.Name, nd)
		}
		for j := uint32(0); j < nd; j++ {
			t.Dims = append(t.Dims, r.u64())
		}
		t.Type = TensorType(r.u32())
		t.Offset = r.u64()
		if r.err != nil {
			return nil, bad("tensor description %d is cut off", i+1)
		}
		if t.Size, err = t.Type.Size(t.Elements()); err != nil {
			return nil, bad("tensor %q: %v", t.Name, err)
		}
		out.Tensors = append(out.Tensors, t)
	}
	align := uint64(32)
	if a, ok := out.KV["general.alignment"].(uint32); ok && a > 0 {
		align = uint64(a)
	}
	out.DataOffset = (r.n + align - 1) / align * align
	for _, t := range out.Tensors {
		end := out.DataOffset + t.Offset + t.Size
		if end > out.FileSize {
			return out, bad("tensor %q ends at byte %d but the file has %d bytes: the file is truncated", t.Name, end, out.FileSize)
		}
	}
	return out, nil
}

type reader struct {
	r   *bufio.Reader
	n   uint64
	err error
}

func (r *reader) read(n int) []byte {
	if r.err != nil {
		return make([]byte, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r.r, b); err != nil {
		r.err = errors.New("unexpected end of file")
	}
	r.n += uint64(n)
	return b
}

func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.read(4)) }
func (r *reader) u64() uint64 { return binary.LittleEndian.Uint64(r.read(8)) }

func (r *reader) str() string {
	n := r.u64()
	if n > maxString {
		r.err = fmt.Errorf("a string of %d bytes", n)
		return ""
	}
	return string(r.read(int(n)))
}

func (r *reader) value(t uint32, depth int) any {
	switch t {
	case TypeUint8:
		return r.read(1)[0]
	case TypeInt8:
		return int8(r.read(1)[0])
	case TypeUint16:
		return binary.LittleEndian.Uint16(r.read(2))
	case TypeInt16:
		return int16(binary.LittleEndian.Uint16(r.read(2)))
	case TypeUint32:
		return r.u32()
	case TypeInt32:
		return int32(r.u32())
	case TypeFloat32:
		return math.Float32frombits(r.u32())
	case TypeBool:
		return r.read(1)[0] != 0
	case TypeString:
		return r.str()
	case TypeUint64:
		return r.u64()
	case TypeInt64:
		return int64(r.u64())
	case TypeFloat64:
		return math.Float64frombits(r.u64())
	case TypeArray:
		et, n := r.u32(), r.u64()
		if n > maxCount || depth > 2 {
			r.err = fmt.Errorf("an array of %d values", n)
			return nil
		}
		out := make([]any, 0, min(n, 1024))
		for i := uint64(0); i < n && r.err == nil; i++ {
			out = append(out, r.value(et, depth+1))
		}
		return out
	}
	r.err = fmt.Errorf("unknown value type %d", t)
	return nil
}
