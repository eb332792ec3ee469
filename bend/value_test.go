package bend

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// toAny converts a Value to what encoding/json decodes with UseNumber.
func toAny(v *Value) any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Str)
	case String:
		return v.Str
	case Array:
		a := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			a[i] = toAny(e)
		}
		return a
	}
	m := make(map[string]any, len(v.Members))
	for _, mb := range v.Members {
		m[mb.Key] = toAny(mb.Value)
	}
	return m
}

// FuzzParseValue checks the hand-written reader against encoding/json: on
// valid UTF-8 within the limits and without duplicate names, both accept the
// same inputs and decode the same values, and MarshalValue writes JSON that
// encoding/json reads back to the same value.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `0`, `-0.0e+1`, `"a\u00e9\ud83d\ude00\n"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`,
		`{"a":[1,true,null,{"b":"c"}]}`, `[1,]`, `{"a" 1}`, `01`, `1.`, `.5`, `"\x"`, "\"\t\"", `tru`, ` [ 1 , 2 ] `,
		`{"a":1,"a":2}`, `1e400`, `"\/"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseValue(data)
		if !utf8.Valid(data) || len(data) > MaxSize {
			if err == nil {
				t.Fatal("accepted invalid UTF-8 or oversize input")
			}
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		stdErr := dec.Decode(&want)
		if stdErr == nil {
			var extra any
			if dec.Decode(&extra) == nil || !json.Valid(data) {
				stdErr = errTrailing
			}
		}
		if err != nil {
			msg := err.Error()
			if stdErr == nil && !strings.Contains(msg, "duplicate member name") && !strings.Contains(msg, "nesting deeper") {
				t.Fatalf("rejected valid JSON %q: %v", data, err)
			}
			return
		}
		if stdErr != nil {
			t.Fatalf("accepted invalid JSON %q (encoding/json: %v)", data, stdErr)
		}
		if got := toAny(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("value differs for %q:\n got %#v\nwant %#v", data, got, want)
		}
		var back any
		d2 := json.NewDecoder(bytes.NewReader(MarshalValueIndent(v)))
		d2.UseNumber()
		if err := d2.Decode(&back); err != nil || !reflect.DeepEqual(back, want) {
			t.Fatalf("MarshalValue output reads back differently: %v", err)
		}
	})
}

var errTrailing = &Error{Msg: "trailing data"}

func TestParseValueErrorsNamePointer(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct{ in, want, reason string }{
		{`{"a":[1,{"b":tru}]}`, `/a/1/b: not valid JSON: invalid literal at byte offset 13 (§3)`, "a syntax error deep in the value names the JSON pointer of the member it is in"},
		{`{"a":"x` + "\x01" + `"}`, `/a: not valid JSON: control character in string at byte offset 7 (§3)`, "a control character inside a string is refused (RFC 8259 §7) and named at its member"},
		{`{"a":1 "b":2}`, `/: not valid JSON: expected ',' or '}' at byte offset 7 (§3)`, "a missing comma between members is reported against the object (here the root, /), not the member before it"},
		{`[1, 2`, `/: not valid JSON: unexpected end of input (§3)`, "input that ends early is reported at the root, with no byte offset to give"},
	}) {
		_, err := ParseValue([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseValue(%q) = %v, want %q (%s)", c.in, err, c.want, c.reason)
		}
	}
}
