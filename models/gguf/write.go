package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/shoebox-app/shoebox/internal/fsutil"
)

// Writer builds a GGUF file: metadata, then tensors with their data.
type Writer struct {
	kv      []kv
	tensors []wtensor
}

type kv struct {
	key string
	val any
}

type wtensor struct {
	name string
	dims []uint64
	typ  TensorType
	data []byte
}

// Set adds a metadata value: string, bool, uint32, int32, float32, uint64,
// []string, []int32, []float32 or []uint32.
func (w *Writer) Set(key string, v any) { w.kv = append(w.kv, kv{key, v}) }

// AddF32 adds an F32 tensor. dims are ggml's order: the fastest-moving first.
func (w *Writer) AddF32(name string, dims []uint64, values []float32) {
	b := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	w.tensors = append(w.tensors, wtensor{name, dims, F32, b})
}

// AddF16 adds an F16 tensor, rounding each value to the nearest half.
func (w *Writer) AddF16(name string, dims []uint64, values []float32) {
	b := make([]byte, 2*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint16(b[2*i:], Half(v))
	}
	w.tensors = append(w.tensors, wtensor{name, dims, F16, b})
}

// Half is f as an IEEE half-precision float, rounded to nearest (ties to
// even); values below the smallest normal half become zero.
func Half(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	if f != f {
		return sign | 0x7e00
	}
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	if exp <= 0 {
		return sign
	}
	if exp >= 31 {
		return sign | 0x7c00
	}
	m := mant >> 13
	if rest := mant & 0x1fff; rest > 0x1000 || rest == 0x1000 && m&1 == 1 {
		m++
		if m == 0x400 {
			m, exp = 0, exp+1
			if exp >= 31 {
				return sign | 0x7c00
			}
		}
	}
	return sign | uint16(exp)<<10 | uint16(m)
}

// Write saves the file at path.
func (w *Writer) Write(path string) error {
	return fsutil.WriteExport(path, func(f io.Writer) error {
		bw := bufio.NewWriter(f)
		if err := w.write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

const alignment = 32

// stickyWriter keeps the first error of its writes, so a long run of
// writes can be checked once at the end.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

func (w *Writer) write(dst io.Writer) error {
	out := &stickyWriter{w: dst}
	var n uint64
	put := func(v any) {
		_ = binary.Write(out, binary.LittleEndian, v) // out keeps the error
		n += uint64(binary.Size(v))
	}
	str := func(s string) {
		put(uint64(len(s)))
		_, _ = io.WriteString(out, s)
		n += uint64(len(s))
	}
	_, _ = io.WriteString(out, Magic)
	n += 4
	put(uint32(3))
	put(uint64(len(w.tensors)))
	put(uint64(len(w.kv)))
	for _, e := range w.kv {
		str(e.key)
		switch v := e.val.(type) {
		case string:
			put(uint32(TypeString))
			str(v)
		case bool:
			put(uint32(TypeBool))
			b := uint8(0)
			if v {
				b = 1
			}
			put(b)
		case uint32:
			put(uint32(TypeUint32))
			put(v)
		case int32:
			put(uint32(TypeInt32))
			put(v)
		case float32:
			put(uint32(TypeFloat32))
			put(v)
		case uint64:
			put(uint32(TypeUint64))
			put(v)
		case []string:
			put(uint32(TypeArray))
			put(uint32(TypeString))
			put(uint64(len(v)))
			for _, s := range v {
				str(s)
			}
		case []int32:
			put(uint32(TypeArray))
			put(uint32(TypeInt32))
			put(uint64(len(v)))
			for _, x := range v {
				put(x)
			}
		case []uint32:
			put(uint32(TypeArray))
			put(uint32(TypeUint32))
			put(uint64(len(v)))
			for _, x := range v {
				put(x)
			}
		case []float32:
			put(uint32(TypeArray))
			put(uint32(TypeFloat32))
			put(uint64(len(v)))
			for _, x := range v {
				put(x)
			}
		default:
			return fmt.Errorf("gguf: metadata %q has unsupported type %T", e.key, e.val)
		}
	}
	var offset uint64
	for _, t := range w.tensors {
		str(t.name)
		put(uint32(len(t.dims)))
		for _, d := range t.dims {
			put(d)
		}
		put(uint32(t.typ))
		put(offset)
		offset += (uint64(len(t.data)) + alignment - 1) / alignment * alignment
	}
	pad := func() {
		for n%alignment != 0 {
			_, _ = out.Write([]byte{0})
			n++
		}
	}
	pad()
	for _, t := range w.tensors {
		_, _ = out.Write(t.data)
		n += uint64(len(t.data))
		pad()
	}
	return out.err
}

// SortedKeys lists metadata keys alphabetically, for stable output.
func (f *File) SortedKeys() []string {
	k := append([]string(nil), f.Keys...)
	sort.Strings(k)
	return k
}
