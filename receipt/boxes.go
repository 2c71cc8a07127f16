package receipt

import "reflect"

var boxPointer = reflect.TypeFor[*Box]()

// EachBox calls fn with every box of r: each field's, the line items' and
// the tax lines' (a reader that read a page turned puts them back on the
// page as given).
func EachBox(r *Receipt, fn func(*Box)) {
	eachBox(reflect.ValueOf(r).Elem(), fn)
}

func eachBox(v reflect.Value, fn func(*Box)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.Type() == boxPointer && !v.IsNil() {
			fn(v.Interface().(*Box))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				eachBox(v.Field(i), fn)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			eachBox(v.Index(i), fn)
		}
	}
}
