package metric

import (
	"reflect"
	"strings"
	"testing"
)

// TestOneListOfComponents: Components, Weights, ComponentNames and List
// agree field by field, so a component added to one and not the others
// fails here instead of being silently dropped by a reader that iterates
// one of them (the report's columns, the configuration, the drift sum).
func TestOneListOfComponents(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[Components](), reflect.TypeFor[Weights]()} {
		if typ.NumField() != NumComponents {
			t.Fatalf("%s has %d fields, NumComponents is %d", typ.Name(), typ.NumField(), NumComponents)
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != ComponentNames[i] {
				t.Errorf("%s field %d is %q in JSON, ComponentNames says %q", typ.Name(), i, name, ComponentNames[i])
			}
		}
	}
	// List and ComponentsOf follow the field order: give each field a
	// distinct value through reflection and read it back by index.
	var c Components
	var w Weights
	cv, wv := reflect.ValueOf(&c).Elem(), reflect.ValueOf(&w).Elem()
	for i := range NumComponents {
		cv.Field(i).SetFloat(float64(i + 1))
		wv.Field(i).SetFloat(float64(10 * (i + 1)))
	}
	for i := range NumComponents {
		if c.List()[i] != float64(i+1) || w.List()[i] != float64(10*(i+1)) {
			t.Errorf("List()[%d] = %v, %v; want the %d-th field", i, c.List()[i], w.List()[i], i)
		}
	}
	if got := ComponentsOf(func(i int) float64 { return c.List()[i] }); got != c {
		t.Errorf("ComponentsOf(List) = %+v, want %+v", got, c)
	}
}
