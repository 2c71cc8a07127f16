package einvoice

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxXMLBytes is the largest invoice XML read. Real e-invoices are tens of
// kilobytes; a few thousand lines stay under a megabyte.
const MaxXMLBytes = 16 << 20

// maxDepth bounds element nesting; CII nests about 10 deep.
const maxDepth = 64

// maxElements bounds the element count, against a flat flood of tiny elements.
const maxElements = 500_000

// ErrNotInvoice is wrapped by Parse's error for well-formed XML that is not
// a CII or UBL invoice.
var ErrNotInvoice = errors.New("not an e-invoice")

// ErrHostile is wrapped by Parse's error for XML refused as unsafe.
var ErrHostile = errors.New("unsafe XML")

// node is an element with its namespace-free name, attributes, trimmed text
// and children: enough to walk CII and UBL by local names.
type node struct {
	name     string
	attrs    map[string]string
	text     string
	children []*node
}

// parseTree reads XML into a tree, refusing DTDs (every entity attack needs
// one), deep nesting, floods of elements and anything over MaxXMLBytes.
func parseTree(data []byte) (*node, error) {
	if len(data) > MaxXMLBytes {
		return nil, fmt.Errorf("%w: the XML is %d MB, over the %d MB limit for an invoice", ErrHostile, len(data)>>20, MaxXMLBytes>>20)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = charsetReader
	var stack []*node
	var root *node
	var text strings.Builder
	count := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the XML is malformed: %w", err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			if bytes.HasPrefix(bytes.TrimSpace(t), []byte("DOCTYPE")) {
				return nil, fmt.Errorf("%w: it declares a document type (DOCTYPE), which e-invoices never do and entity attacks need", ErrHostile)
			}
			return nil, fmt.Errorf("%w: it holds a <!%s> declaration", ErrHostile, firstWord(t))
		case xml.StartElement:
			count++
			if count > maxElements {
				return nil, fmt.Errorf("%w: over %d elements", ErrHostile, maxElements)
			}
			if len(stack) >= maxDepth {
				return nil, fmt.Errorf("%w: elements nested over %d deep", ErrHostile, maxDepth)
			}
			n := &node{name: t.Name.Local}
			for _, a := range t.Attr {
				if n.attrs == nil {
					n.attrs = map[string]string{}
				}
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("the XML is malformed: a second root element <%s>", t.Name.Local)
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			}
			stack = append(stack, n)
			text.Reset()
		case xml.CharData:
			if len(stack) > 0 {
				text.Write(t)
			}
		case xml.EndElement:
			n := stack[len(stack)-1]
			if len(n.children) == 0 {
				n.text = strings.TrimSpace(text.String())
			}
			text.Reset()
			stack = stack[:len(stack)-1]
		}
	}
	if root == nil {
		return nil, fmt.Errorf("the XML is malformed: no root element")
	}
	return root, nil
}

func firstWord(b []byte) string {
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// charsetReader accepts the encodings invoices declare besides UTF-8.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	case "iso-8859-1", "latin1", "iso-8859-15", "windows-1252", "cp1252":
		b, err := io.ReadAll(io.LimitReader(in, MaxXMLBytes))
		if err != nil {
			return nil, err
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return strings.NewReader(string(r)), nil
	}
	return nil, fmt.Errorf("the XML is in the %s encoding, which Shoebox cannot read", label)
}

// path walks children by local names; "A|B" accepts either name at a step.
func (n *node) all(path string) []*node {
	if n == nil {
		return nil
	}
	cur := []*node{n}
	for _, step := range strings.Split(path, "/") {
		names := strings.Split(step, "|")
		var next []*node
		for _, c := range cur {
			for _, ch := range c.children {
				for _, nm := range names {
					if ch.name == nm {
						next = append(next, ch)
						break
					}
				}
			}
		}
		cur = next
		if len(cur) == 0 {
			return nil
		}
	}
	return cur
}

// first is the first element at path, or nil.
func (n *node) first(path string) *node {
	if all := n.all(path); len(all) > 0 {
		return all[0]
	}
	return nil
}

// str is the text at path, "" when absent.
func (n *node) str(path string) string {
	if f := n.first(path); f != nil {
		return f.text
	}
	return ""
}

func (n *node) attr(name string) string {
	if n == nil {
		return ""
	}
	return n.attrs[name]
}
