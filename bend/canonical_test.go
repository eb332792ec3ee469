package bend

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"

	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// The one-pass canonical writer is checked against gowebpki/jcs, which the
// ids were computed with before: on every input the oracle accepts, our
// bytes must equal its bytes, and where it fails we must fail too.

// jcsOfValue is the oracle for CanonicalValue: serialize, then let
// gowebpki/jcs parse and canonicalize.
func jcsOfValue(v *Value) ([]byte, error) {
	return jcs.Transform(MarshalValue(v))
}

// checkCanonicalValue fails t unless CanonicalValue(v) and the oracle agree,
// in bytes or in failing.
func checkCanonicalValue(t testing.TB, v *Value) []byte {
	t.Helper()
	got, err := CanonicalValue(v)
	want, werr := jcsOfValue(v)
	if (err == nil) != (werr == nil) {
		t.Fatalf("CanonicalValue error = %v, jcs error = %v, for %s", err, werr, MarshalValue(v))
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("canonical bytes differ\n got: %s\nwant: %s", got, want)
	}
	return got
}

// identityFormJCS is IdentityForm as it was before the one-pass writer:
// edges sorted by their gowebpki/jcs bytes. It is the oracle for Canonical.
func identityFormJCS(d *Document) (*Value, error) {
	self := func(s string) string { return Relative(s, d.ID) }
	blocks := BlocksValue(d.Blocks)
	MapValueTargets(blocks.Elems, self)
	all := append(append([]*Edge(nil), d.Edges...), LinkEdges(d)...)
	type keyed struct {
		key []byte
		v   *Value
	}
	var edges []keyed
	for _, e := range all {
		c := *e
		c.Subject, c.Object = self(e.Subject), self(e.Object)
		v := c.Value()
		k, err := jcsOfValue(v)
		if err != nil {
			return nil, err
		}
		edges = append(edges, keyed{k, v})
	}
	slices.SortFunc(edges, func(a, b keyed) int { return bytes.Compare(a.key, b.key) })
	edges = slices.CompactFunc(edges, func(a, b keyed) bool { return bytes.Equal(a.key, b.key) })
	ev := &Value{Kind: Array, Elems: []*Value{}}
	for _, e := range edges {
		ev.Elems = append(ev.Elems, e.v)
	}
	return &Value{Kind: Object, Members: []Member{{"blocks", blocks}, {"edges", ev}}}, nil
}

// checkDocument fails t unless Canonical, ID and IdentityForm agree with
// the oracle on d. The oracle runs last: MapValueTargets may rewrite
// values that d shares with the form it builds.
func checkDocument(t testing.TB, d *Document) {
	t.Helper()
	got, err := Canonical(d)
	id, idErr := ID(d)
	form, formErr := IdentityForm(d)
	var viaForm []byte
	if formErr == nil {
		viaForm, formErr = CanonicalValue(form)
	}
	oracleForm, oerr := identityFormJCS(d)
	var want []byte
	if oerr == nil {
		want, oerr = jcsOfValue(oracleForm)
	}
	if (err == nil) != (oerr == nil) || (idErr == nil) != (oerr == nil) || (formErr == nil) != (oerr == nil) {
		t.Fatalf("errors differ: Canonical %v, ID %v, IdentityForm %v, oracle %v", err, idErr, formErr, oerr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Canonical differs from the oracle\n got: %s\nwant: %s", got, want)
	}
	if !bytes.Equal(viaForm, want) {
		t.Fatalf("CanonicalValue(IdentityForm) differs from the oracle\n got: %s\nwant: %s", viaForm, want)
	}
	if oerr == nil && id != CID(want) {
		t.Fatalf("ID = %s, want %s", id, CID(want))
	}
}

// TestCanonicalVectors: the cyberphone RFC 8785 vectors, read with our
// reader and written by CanonicalValue, give the expected output byte for
// byte, as jcs.Transform of the input does.
func TestCanonicalVectors(t *testing.T) {
	inputs, err := filepath.Glob("testdata/jcs/input/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no JCS vectors found: %v", err)
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata/jcs/output", name))
			if err != nil {
				t.Fatal(err)
			}
			v, err := ParseValue(src)
			if err != nil {
				t.Fatal(err)
			}
			got := checkCanonicalValue(t, v)
			if !bytes.Equal(got, want) {
				t.Errorf("canonical form differs from the vector\n got: %s\nwant: %s", got, want)
			}
			if oracle, err := jcs.Transform(src); err != nil || !bytes.Equal(got, oracle) {
				t.Errorf("differs from jcs.Transform of the input (%v)\n got: %s\nwant: %s", err, got, oracle)
			}
		})
	}
}

// TestCanonicalNumbers: the 2,000 sample doubles, each written in several
// spellings a JSON file may use, canonicalize to the ECMAScript form the
// sample gives, which is also jcs.NumberToJSON's.
func TestCanonicalNumbers(t *testing.T) {
	f, err := os.Open("testdata/jcs/numbers-sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		hex, want, _ := strings.Cut(sc.Text(), ",")
		bits, err := strconv.ParseUint(hex, 16, 64)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		x := math.Float64frombits(bits)
		if oracle, _ := jcs.NumberToJSON(x); oracle != want {
			t.Fatalf("line %d: the sample says %s, jcs %s", n, want, oracle)
		}
		for _, lit := range []string{
			strconv.FormatFloat(x, 'g', -1, 64),
			strconv.FormatFloat(x, 'e', -1, 64),
			strconv.FormatFloat(x, 'E', 17, 64),
			want,
		} {
			got, err := appendNumber(nil, lit)
			if err != nil || string(got) != want {
				t.Errorf("line %d: appendNumber(%s) = %s, %v; want %s", n, lit, got, err, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 2000 {
		t.Errorf("read %d numbers, want 2000", n)
	}
}

// TestCanonicalCorpus: every corpus document, as a JSON value and as a
// document (Canonical, ID, IdentityForm), agrees with the oracle.
func TestCanonicalCorpus(t *testing.T) {
	names, err := fs.Glob(corpus.FS, "*.bend.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus documents: %v", err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := fs.ReadFile(corpus.FS, name)
			if err != nil {
				t.Fatal(err)
			}
			v, err := ParseValue(src)
			if err != nil {
				t.Fatal(err)
			}
			got := checkCanonicalValue(t, v)
			if oracle, err := jcs.Transform(src); err != nil || !bytes.Equal(got, oracle) {
				t.Fatalf("differs from jcs.Transform of the file (%v)", err)
			}
			d, err := Parse(src)
			if err != nil {
				t.Fatal(err)
			}
			checkDocument(t, d)
		})
	}
}

// canonicalShapes are the shapes transcripts, meta and unknown members put
// through canonicalization, each with the property it guards.
var canonicalShapes = []struct {
	name, src, reason string
}{
	{"empty-containers", `{"a":{},"b":[],"c":[{},[]],"d":{"e":{}}}`, "empty objects and arrays stay, nothing is elided"},
	{"number-forms", `[1e21,1e20,1E-7,1e-6,-0,-0.0,0.0,5e-324,1.7976931348623157e308,9007199254740993,123456789012345678,1.0,10.50,-1e-400,0.1,100e-2,2e0]`, "ES6 Number.prototype.toString: exponent from 1e21 up and below 1e-6, -0 is 0, shortest round trip, integers past 2^53 rounded"},
	{"long-integers", `[999999999999999,1000000000000000,-999999999999999,12345678901234567890]`, "the 15-digit fast path and past it"},
	{"escapes", `["\"\\\/\b\f\n\r\t","\u0000\u001f\u007f\u0080","\u2028\u2029","\u00e9\ud83d\ude00","<&>\u003c\u003e\u0026"]`, "RFC 8785 escapes quote, backslash and controls only; / and HTML characters are written raw"},
	{"utf16-order", `{"\ue000":1,"\ud83d\ude00":2,"\uffff":3,"a":4,"\u0080":5,"":6,"aa":7,"A":8,"\u00e9":9,"\ud800\udc00":10}`, "member names sorted by UTF-16 code units, surrogates before U+E000"},
	{"same-high-surrogate", `{"\ud83d\ude01":1,"\ud83d\ude00":2,"\ud83c\udfff":3}`, "names that share a high surrogate sort by the low one"},
	{"nested", `{"z":{"y":[{"b":1,"a":[true,false,null]}],"x":"\u00fc"},"a":-1.5e-9}`, "sorting applies at every level, arrays keep their order"},
	{"transcript", `{"schema":1,"kind":"task","run_id":"r1","model":"m/x","request":{"model":"m/x","messages":[{"role":"user","content":"Write \u003cb\u003e \"json\"\n\tplease – é 😀"}],"temperature":0.7,"seed":42},"response":{"content":"{\"a\":1}","usage":{"prompt_tokens":1200,"cost":1.5e-05},"raw_body":{"choices":[{"logprobs":null,"x":[0.1,2.5e-8,1e300]}]}},"attempts":[{"number":1,"status":200}],"hash":""}`, "what transcript.ComputeHash canonicalizes: encoding/json output with HTML escapes, floats, raw bodies"},
	{"whitespace", " \n{ \"b\" : [ 1 , 2 ] ,\t\"a\" : \"x\" } \r\n", "insignificant white space disappears"},
	{"deep", strings.Repeat(`{"k":[`, 100) + `0` + strings.Repeat(`]}`, 100), "depth is no problem"},
}

// TestCanonicalShapes runs canonicalShapes through CanonicalValue and the
// oracle, from our reader and from the raw text.
func TestCanonicalShapes(t *testing.T) {
	for _, c := range tabletest.Cases(t, canonicalShapes) {
		t.Run(c.name, func(t *testing.T) {
			v, err := ParseValue([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			got, err := CanonicalValue(v)
			if err != nil {
				t.Fatalf("CanonicalValue: %v (%s)", err, c.reason)
			}
			want, err := jcs.Transform([]byte(c.src))
			if err != nil {
				t.Fatalf("jcs: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s\n got: %s\nwant: %s", c.reason, got, want)
			}
			checkCanonicalValue(t, v)
		})
	}
}

// TestCanonicalErrors: where RFC 8785 has no answer, CanonicalValue fails
// as the oracle does; values built in code can hold what no parse yields.
func TestCanonicalErrors(t *testing.T) {
	num := func(s string) *Value { return &Value{Kind: Number, Str: s} }
	obj := func(ms ...Member) *Value { return &Value{Kind: Object, Members: ms} }
	cases := []struct {
		name   string
		v      *Value
		reason string
	}{
		{"overflow", num("1e400"), "a number beyond a double has no ES6 form"},
		{"negative-overflow", num("-2e308"), "likewise below"},
		{"not-a-number", num("0x10"), "hex is not JSON"},
		{"leading-zero", num("01"), "RFC 8259 forbids leading zeros"},
		{"plus", num("+1"), "nor a plus sign"},
		{"empty-number", num(""), "nor nothing"},
		{"bad-utf8", StringValue("a\xffb"), "strings must be UTF-8"},
		{"bad-utf8-key", obj(Member{"\xc3", num("1")}), "names too"},
		{"duplicate", obj(Member{"a", num("1")}, Member{"b", num("2")}, Member{"a", num("3")}), "duplicate names are ambiguous"},
		{"nested-duplicate", &Value{Kind: Array, Elems: []*Value{obj(Member{"x", num("1")}, Member{"x", num("1")})}}, "at any depth"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			if _, err := CanonicalValue(c.v); err == nil {
				t.Errorf("no error (%s)", c.reason)
			}
			if _, err := jcsOfValue(c.v); err == nil {
				t.Errorf("the oracle accepts it; the case is wrong")
			}
		})
	}
}

// TestCompareKeys pins the member order on pairs where UTF-16 and UTF-8
// disagree, and checks it against sorting by utf16 code units directly.
func TestCompareKeys(t *testing.T) {
	cases := []struct {
		a, b   string
		want   int
		reason string
	}{
		{"\ue000", "\U0001F600", 1, "U+E000 sorts after an astral character in UTF-16 (E000 > D83D) though its UTF-8 sorts first"},
		{"\uffff", "\U00010000", 1, "the edge of the exception: U+FFFF sorts after U+10000 (FFFF > D800)"},
		{"\u00e9", "\U0001F600", -1, "below U+E000, UTF-16 and UTF-8 agree (00E9 < D83D)"},
		{"a", "ab", -1, "a prefix sorts first"},
		{"", "a", -1, "the empty name sorts first"},
		{"b", "a", 1, "plain ASCII sorts by byte"},
		{"\U0001F600", "\U0001F601", -1, "two astral characters sort by code point"},
		{"\U0001F3FF", "\U0001F600", -1, "astral characters that differ in the high surrogate sort by it (D83C < D83D)"},
		{"x\u00e9", "x\u00e9", 0, "equal names compare equal, past a common prefix"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if got := compareKeys(c.a, c.b); sign(got) != c.want {
			t.Errorf("compareKeys(%q, %q) = %d, want sign %d (%s)", c.a, c.b, got, c.want, c.reason)
		}
	}
}

func sign(x int) int { return max(-1, min(1, x)) }

// TestCanonicalRandom: random JSON values (deterministic seed) of every
// kind, with names and strings drawn to hit escapes, non-ASCII and the
// UTF-16 ordering, and numbers across the double range, agree with the
// oracle.
func TestCanonicalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		v := randomValue(r, 0)
		checkCanonicalValue(t, v)
	}
}

var randomRunes = []rune{'a', 'b', 'A', 'z', '0', '"', '\\', '/', '\n', '\t', 0, 0x1f, 0x7f, 0x80, 0xe9, 0x2028, 0xe000, 0xfeff, 0xffff, 0x10000, 0x1f600, 0x1f601, 0x10ffff}

func randomString(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(5); n > 0; n-- {
		b.WriteRune(randomRunes[r.IntN(len(randomRunes))])
	}
	return b.String()
}

func randomNumber(r *rand.Rand) string {
	switch r.IntN(6) {
	case 0:
		return strconv.Itoa(r.IntN(2000) - 1000)
	case 1:
		return strconv.FormatInt(r.Int64()>>r.IntN(64), 10)
	case 2:
		return strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(40)-20)), 'g', -1, 64)
	case 3:
		return strconv.FormatFloat(math.Float64frombits(r.Uint64()&^(0x7ff<<52)|uint64(r.IntN(0x7ff))<<52), 'e', -1, 64)
	case 4:
		return fmt.Sprintf("%d.%de%d", r.IntN(100), r.IntN(1000), r.IntN(60)-30)
	}
	return []string{"-0", "0", "1e21", "1e-7", "5e-324", "0.000001", "999999999999999999999"}[r.IntN(7)]
}

func randomValue(r *rand.Rand, depth int) *Value {
	k := Kind(r.IntN(6))
	if depth > 4 && k >= Array {
		k = String
	}
	switch k {
	case Null:
		return &Value{Kind: Null}
	case Bool:
		return &Value{Kind: Bool, Bool: r.IntN(2) == 0}
	case Number:
		return &Value{Kind: Number, Str: randomNumber(r)}
	case String:
		return StringValue(randomString(r))
	case Array:
		v := &Value{Kind: Array, Elems: []*Value{}}
		for n := r.IntN(5); n > 0; n-- {
			v.Elems = append(v.Elems, randomValue(r, depth+1))
		}
		return v
	}
	v := &Value{Kind: Object, Members: []Member{}}
	seen := map[string]bool{}
	for n := r.IntN(20); n > 0; n-- {
		k := randomString(r)
		if !seen[k] {
			seen[k] = true
			v.Members = append(v.Members, Member{k, randomValue(r, depth+1)})
		}
	}
	return v
}

// TestCanonicalDocumentsBuiltInCode: documents the typed API can hold but
// Parse never yields (Extra members shadowing known ones, raw link marks)
// still canonicalize as IdentityForm does.
func TestCanonicalDocumentsBuiltInCode(t *testing.T) {
	str := func(s string) *Value { return StringValue(s) }
	pred := "cites"
	blockObj := func(id, target string) *Value {
		return &Value{Kind: Object, Members: []Member{{"id", str(id)}, {"kind", str("embed")}, {"target", str(target)}}}
	}
	cases := []struct {
		name   string
		d      func() *Document
		reason string
	}{
		{"extra-target-string", func() *Document {
			return &Document{ID: "me", Blocks: []*Block{{ID: "b", Kind: "embed", Extra: []Member{{"target", str("bend:me#x")}}}}}
		}, "a string target in Extra is relativized, as MapValueTargets finds it"},
		{"extra-items", func() *Document {
			return &Document{ID: "me", Blocks: []*Block{{ID: "l", Kind: "list", Extra: []Member{
				{"items", &Value{Kind: Array, Elems: []*Value{blockObj("i", "bend:me#z"), str("x")}}},
				{"blocks", &Value{Kind: Array, Elems: []*Value{blockObj("j", "bend:me")}}},
			}}}}
		}, "block values under Extra items and blocks are followed"},
		{"extra-spans-marks", func() *Document {
			link := &Value{Kind: Object, Members: []Member{{"target", str("bend:me#q")}, {"kind", str("link")}}}
			span := &Value{Kind: Object, Members: []Member{{"id", str("s")}, {"marks", &Value{Kind: Array, Elems: []*Value{link, str("bold")}}}}}
			return &Document{ID: "me", Blocks: []*Block{
				{ID: "p", Kind: "paragraph", Extra: []Member{{"spans", &Value{Kind: Array, Elems: []*Value{span}}}}},
				{ID: "r", Kind: "paragraph", Spans: []*Span{{ID: "t", Extra: []Member{{"marks", &Value{Kind: Array, Elems: []*Value{link.Clone()}}}}}}},
			}}
		}, "spans and marks held verbatim are followed to link targets"},
		{"raw-link-mark", func() *Document {
			raw := &Value{Kind: Object, Members: []Member{{"kind", str("link")}, {"target", str("bend:me#b")}, {"extra", str("x")}}}
			return &Document{ID: "me", Blocks: []*Block{{ID: "b", Kind: "paragraph", Spans: []*Span{{ID: "s", Marks: []*Mark{{Raw: raw}, {Name: "bold"}}}}}}}
		}, "a raw mark whose kind is link gets a relative target"},
		{"link-kind-shadowed", func() *Document {
			return &Document{ID: "me", Blocks: []*Block{{ID: "b", Kind: "paragraph", Spans: []*Span{{ID: "s", Marks: []*Mark{
				{Link: &Link{Target: "bend:me#b", Extra: []Member{{"kind", str("other")}}}},
				{Link: &Link{Target: "bend:me#c", Predicate: &pred, Extra: []Member{{"kind", str("link")}, {"target", str("bend:me#d")}}}},
			}}}}}}
		}, "a link whose Extra overrides kind keeps an absolute target; a shadowing target is relativized"},
		{"extra-duplicates", func() *Document {
			return &Document{ID: "me", Edges: []*Edge{{Subject: "a", Predicate: "p", Object: "b", Extra: []Member{{"x", str("1")}, {"x", str("2")}}}}}
		}, "duplicate names in Extra fail as the oracle does"},
		{"edge-extra-shadows", func() *Document {
			return &Document{ID: "me", Edges: []*Edge{
				{Subject: "bend:me#a", Predicate: "p", Object: "bend:me", Extra: []Member{{"object", &Value{Kind: Number, Str: "5"}}, {"zz", str("z")}, {"Meta", str("m")}}},
				{Subject: "bend:me#a", Predicate: "p", Object: "bend:me", Meta: &Value{Kind: Object, Members: []Member{{"w", &Value{Kind: Number, Str: "0.50"}}}}},
				{Subject: "bend:#a", Predicate: "p", Object: "bend:", Meta: &Value{Kind: Object, Members: []Member{{"w", &Value{Kind: Number, Str: "5e-1"}}}}},
			}}
		}, "an Extra member replaces the known one; equal edges after canonicalization are one"},
		{"self-id-odd", func() *Document {
			return &Document{ID: "#b.s", Blocks: []*Block{{ID: "b", Kind: "paragraph", Spans: []*Span{{ID: "s", Marks: []*Mark{{Link: &Link{Target: "x:y", Predicate: &pred}}}}}}}}
		}, "a declared id that a span reference starts with still relativizes as Relative does"},
		{"level-big", func() *Document {
			l := 1 << 60
			return &Document{ID: "me", Blocks: []*Block{{ID: "h", Kind: "heading", Level: &l}}}
		}, "an integer past 2^53 is written as the double it becomes"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			checkDocument(t, c.d())
		})
	}
}

// FuzzCanonical: for any input that parses, CanonicalValue equals
// jcs.Transform of our serialization, and of the input itself whenever jcs
// accepts it; for any input that is a document, Canonical and ID equal the
// oracle's.
func FuzzCanonical(f *testing.F) {
	for _, c := range tabletest.Cases(f, canonicalShapes) {
		f.Add([]byte(c.src))
	}
	vectors, _ := filepath.Glob("testdata/jcs/input/*.json")
	for _, name := range vectors {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	names, _ := fs.Glob(corpus.FS, "*.bend.json")
	for _, name := range names {
		if b, err := fs.ReadFile(corpus.FS, name); err == nil {
			f.Add(b)
		}
	}
	f.Add(readFixture(f))
	f.Add([]byte(`{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"b","kind":"paragraph","spans":[{"id":"s","text":"hi","marks":["bold",{"kind":"link","target":"bend:x#b","predicate":"cites"}]}]}],"edges":[{"subject":"bend:x#b.s","predicate":"cites","object":"bend:x#b"}]}`))
	f.Add([]byte(`"\ud800"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseValue(data)
		if err != nil {
			return
		}
		got := checkCanonicalValue(t, v)
		if want, err := jcs.Transform(data); err == nil && !bytes.Equal(got, want) {
			t.Fatalf("differs from jcs.Transform of the input\n got: %s\nwant: %s", got, want)
		}
		if v.Kind == Object {
			checkDocument(t, FromValue(v))
		}
	})
}

// TestCanonicalIsValidJSON: the canonical form of the fixture reads back as
// the same JSON (a sanity check independent of the oracle).
func TestCanonicalIsValidJSON(t *testing.T) {
	c, err := Canonical(mustParse(t, string(readFixture(t))))
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(c) {
		t.Fatalf("not JSON: %s", c)
	}
}

// TestHashValueIsCanonicalValue: hashing as the bytes are written gives
// the hash of CanonicalValue's bytes, for values larger than one flush.
func TestHashValueIsCanonicalValue(t *testing.T) {
	big := `{"z":[` + strings.Repeat(`"\u00e9\"x\n",1.50,`, 20000) + `0],"a":{"b":null}}`
	for _, src := range []string{`{}`, `[1,"é"]`, big} {
		v, err := ParseValue([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		want, err := CanonicalValue(v)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		if err := HashValue(v, h); err != nil {
			t.Fatal(err)
		}
		if got, w := h.Sum(nil), sha256.Sum256(want); !bytes.Equal(got, w[:]) {
			t.Errorf("%d bytes: HashValue differs from sha256(CanonicalValue)", len(src))
		}
	}
}
