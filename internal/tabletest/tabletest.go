// Package tabletest refuses a table test whose cases do not say why they
// exist. House style (STYLE.md, habit 8, after go-cmp, whose test harness
// panics on a case without one) writes table tests as
// {name, input, want, reason}: the reason says what property the case
// guards, so that a reader who sees it fail knows what broke, and a reader
// who wants to delete it knows what would go unguarded. A convention that
// nothing checks drifts (the module had fields named both reason and why,
// and tables with neither), so every table test iterates its cases through
// this package:
//
//	for _, c := range tabletest.Cases(t, cases) {
//
// Cases (and Map, for tables keyed by name) fail the test before the first
// case runs when the case type has no string field named reason, or when a
// case leaves it empty. The repository-wide check in tables_test.go makes
// sure every table test calls them.
package tabletest

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Field is the name of the field that every test case must fill in.
const Field = "reason"

// Cases returns cases unchanged after checking that each one has a
// non-empty reason field; otherwise it calls t.Fatalf, naming every case
// without one by its name field, or by its index when it has no name.
// The case type must be a struct, or a pointer to one.
func Cases[S ~[]E, E any](t testing.TB, cases S) S {
	t.Helper()
	var missing []string
	for i, c := range cases {
		ok, err := hasReason(reflect.ValueOf(&c).Elem())
		if err != nil {
			t.Fatalf("tabletest: %v", err)
		}
		if !ok {
			missing = append(missing, label(reflect.ValueOf(&c).Elem(), fmt.Sprintf("cases[%d]", i)))
		}
	}
	refuse(t, missing)
	return cases
}

// Map is Cases for a table kept as a map; a case is named by its name
// field, or by its key. Cases without a reason are listed in key order, so
// that the failure reads the same on every run.
func Map[M ~map[K]V, K comparable, V any](t testing.TB, cases M) M {
	t.Helper()
	var missing []string
	for k, c := range cases {
		ok, err := hasReason(reflect.ValueOf(&c).Elem())
		if err != nil {
			t.Fatalf("tabletest: %v", err)
		}
		if !ok {
			missing = append(missing, label(reflect.ValueOf(&c).Elem(), fmt.Sprintf("cases[%#v]", k)))
		}
	}
	slices.SortFunc(missing, func(a, b string) int { return cmp.Compare(a, b) })
	refuse(t, missing)
	return cases
}

func refuse(t testing.TB, missing []string) {
	t.Helper()
	if len(missing) > 0 {
		t.Fatalf("tabletest: %s: no %s: say what property the case guards (STYLE.md, habit 8)",
			strings.Join(missing, ", "), Field)
	}
}

// hasReason reports whether the case v has a non-blank reason field; the
// error says why v cannot have one at all, which is a fault of the whole
// table rather than of one case.
func hasReason(v reflect.Value) (bool, error) {
	s, err := structOf(v)
	if err != nil || !s.IsValid() {
		return false, err
	}
	f, ok := s.Type().FieldByName(Field)
	if !ok {
		return false, fmt.Errorf("case type %s has no field %s: add one that says what property each case guards (STYLE.md, habit 8)", s.Type(), Field)
	}
	if f.Type.Kind() != reflect.String {
		return false, fmt.Errorf("case type %s: field %s is %s, not a string", s.Type(), Field, f.Type)
	}
	return strings.TrimSpace(s.FieldByIndex(f.Index).String()) != "", nil
}

// structOf returns the struct behind v, the zero Value for a nil pointer
// (a case that says nothing), or an error when v is not a struct at all.
func structOf(v reflect.Value) (reflect.Value, error) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}, nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, fmt.Errorf("case type %s is not a struct, so it cannot carry a %s", v.Type(), Field)
	}
	return v, nil
}

// label names a case by its name (or Name) field when it has a non-empty one, and
// by fallback (its index or key) otherwise.
func label(v reflect.Value, fallback string) string {
	s, err := structOf(v)
	if err != nil || !s.IsValid() {
		return fallback
	}
	for _, field := range []string{"name", "Name"} {
		if f, ok := s.Type().FieldByName(field); ok && f.Type.Kind() == reflect.String {
			if name := s.FieldByIndex(f.Index).String(); name != "" {
				return fmt.Sprintf("%s (%q)", fallback, name)
			}
		}
	}
	return fallback
}
