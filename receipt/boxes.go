package receipt

import "reflect"

var boxPointer = reflect.TypeFor[*Box]()

// EachBox calls fn once with every box of r: each field's, the line items'
// and the tax lines' (a reader that read a page turned puts them back on
// the page as given). A box two fields share (a total found as its
// subtotal) is passed once.
func EachBox(r *Receipt, fn func(*Box)) {
	eachBox(reflect.ValueOf(r).Elem(), map[*Box]bool{}, fn)
}

func eachBox(v reflect.Value, seen map[*Box]bool, fn func(*Box)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.Type() == boxPointer && !v.IsNil() {
			if b := v.Interface().(*Box); !seen[b] {
				seen[b] = true
				fn(b)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				eachBox(v.Field(i), seen, fn)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			eachBox(v.Index(i), seen, fn)
		}
	}
}
