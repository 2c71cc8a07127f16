package bank

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// OFX 1.x is SGML whose leaf elements need no closing tag
// (<NAME>OFFICEWORKS<MEMO>…); OFX 2.x is XML. One tokenizer reads both:
// an element followed by text is a leaf holding that text, and its
// closing tag is optional; an element followed by another tag is an
// aggregate that its closing tag ends.

type ofxTokenKind int

const (
	ofxEOF ofxTokenKind = iota
	ofxStart
	ofxEnd
	ofxText
)

type ofxToken struct {
	kind ofxTokenKind
	name string // element name, upper case (start and end tags)
	text string // character data, entities decoded
}

// ofxTokenizer walks an OFX body (the part after the header block). It
// expands no entity but the five predefined ones and character
// references, and refuses a document type declaration outright.
type ofxTokenizer struct {
	src string
	pos int
	// closeNext is the element of a self-closing tag (<MEMO/>), whose
	// end tag is handed out next.
	closeNext string
}

var errOFXDoctype = errors.New("the file declares a document type (<!DOCTYPE …> or <!ENTITY …>), which no bank writes; it is refused so that nothing in it is expanded")

func (z *ofxTokenizer) next() (ofxToken, error) {
	if z.closeNext != "" {
		name := z.closeNext
		z.closeNext = ""
		return ofxToken{kind: ofxEnd, name: name}, nil
	}
	for z.pos < len(z.src) {
		rest := z.src[z.pos:]
		if rest[0] != '<' {
			end := strings.IndexByte(rest, '<')
			if end < 0 {
				end = len(rest)
			}
			z.pos += end
			return ofxToken{kind: ofxText, text: ofxUnescape(rest[:end])}, nil
		}
		switch {
		case strings.HasPrefix(rest, "<!--"):
			if err := z.skipPast("-->", "a comment"); err != nil {
				return ofxToken{}, err
			}
		case strings.HasPrefix(rest, "<![CDATA["):
			end := strings.Index(rest, "]]>")
			if end < 0 {
				return ofxToken{}, errors.New("a CDATA section never ends: the file is cut off")
			}
			z.pos += end + 3
			return ofxToken{kind: ofxText, text: rest[len("<![CDATA["):end]}, nil
		case strings.HasPrefix(rest, "<!"):
			return ofxToken{}, errOFXDoctype
		case strings.HasPrefix(rest, "<?"):
			if err := z.skipPast("?>", "a processing instruction"); err != nil {
				return ofxToken{}, err
			}
		default:
			return z.tag(rest)
		}
	}
	return ofxToken{kind: ofxEOF}, nil
}

// skipPast steps over a comment or processing instruction.
func (z *ofxTokenizer) skipPast(end, what string) error {
	i := strings.Index(z.src[z.pos:], end)
	if i < 0 {
		return fmt.Errorf("%s never ends: the file is cut off", what)
	}
	z.pos += i + len(end)
	return nil
}

// tag reads <NAME>, </NAME> or <NAME/> at the start of rest. OFX tags
// carry no attributes; any an XML writer adds are skipped.
func (z *ofxTokenizer) tag(rest string) (ofxToken, error) {
	end := strings.IndexByte(rest, '>')
	if end < 0 {
		return ofxToken{}, errors.New("a tag never ends: the file is cut off")
	}
	inner := rest[1:end]
	z.pos += end + 1
	kind := ofxStart
	if strings.HasPrefix(inner, "/") {
		kind, inner = ofxEnd, inner[1:]
	}
	selfClosing := kind == ofxStart && strings.HasSuffix(inner, "/")
	inner = strings.TrimSuffix(inner, "/")
	name := inner
	if i := strings.IndexAny(inner, " \t\r\n"); i >= 0 {
		name = inner[:i]
	}
	if !ofxName(name) {
		return ofxToken{}, fmt.Errorf("%q is not a tag", firstBytes(rest[:end+1], 40))
	}
	name = strings.ToUpper(name)
	if selfClosing {
		z.closeNext = name
	}
	return ofxToken{kind: kind, name: name}, nil
}

func ofxName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i, c := range s {
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':')) {
			return false
		}
	}
	return true
}

var ofxEntities = map[string]string{"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'", "nbsp": " "}

// ofxUnescape decodes the predefined entities and character references.
// Anything else with an ampersand is left as written: SGML exports often
// carry a bare "&" (AT&T).
func ofxUnescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		semi := strings.IndexByte(firstBytes(s, 12), ';')
		if semi < 0 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		r, ok := ofxEntity(s[1:semi])
		if !ok {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		b.WriteString(r)
		s = s[semi+1:]
	}
}

func ofxEntity(ref string) (string, bool) {
	if v, ok := ofxEntities[ref]; ok {
		return v, true
	}
	if !strings.HasPrefix(ref, "#") {
		return "", false
	}
	var n uint64
	var err error
	if strings.HasPrefix(ref, "#x") || strings.HasPrefix(ref, "#X") {
		n, err = strconv.ParseUint(ref[2:], 16, 32)
	} else {
		n, err = strconv.ParseUint(ref[1:], 10, 32)
	}
	if err != nil || n == 0 || !utf8.ValidRune(rune(n)) {
		return "", false
	}
	return string(rune(n)), true
}

// ofxBody strips the OFX 1.x header block (OFXHEADER:100, DATA:OFXSGML,
// CHARSET:1252 …, up to the first tag). The text is already UTF-8:
// Parse decoded a file that is not valid UTF-8 as Windows-1252, which is
// what CHARSET:1252 and the ISO-8859-1 files banks write mean. OFX 2.x
// starts with <?xml …?> and <?OFX …?>, which the tokenizer steps over.
func ofxBody(txt string) (string, error) {
	txt = strings.TrimLeft(txt, "\ufeff \t\r\n")
	if !strings.HasPrefix(strings.ToUpper(txt), "OFXHEADER") {
		return txt, nil
	}
	i := strings.IndexByte(txt, '<')
	if i < 0 {
		return "", errors.New("the file has an OFX header but nothing after it")
	}
	for _, line := range strings.Split(strings.TrimSpace(txt[:i]), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.Contains(line, ":") {
			return "", fmt.Errorf("the header line %q is not of the form NAME:VALUE", firstBytes(line, 40))
		}
	}
	return txt[i:], nil
}
