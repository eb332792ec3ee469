package bend

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// largeDocument returns a valid document of about size bytes: paragraphs of
// marked spans, nested lists, and edges between them.
func largeDocument(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"bendscript":"0.1","id":"big","vocabulary":"core","meta":{"n":1},"blocks":[`)
	i := 0
	for b.Len() < size {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"blk-%x","kind":"paragraph","spans":[{"id":"spn-1","text":"Paragraph %d explains how the memory loop closes when consolidation completes."},{"id":"spn-2","text":"a link","marks":["bold",{"kind":"link","target":"bend:big#blk-%x","predicate":"cites"}]}]},`, i, i, i/2)
		fmt.Fprintf(&b, `{"id":"lst-%x","kind":"list","ordered":false,"items":[{"id":"itm-%x","kind":"list-item","blocks":[{"id":"par-%x","kind":"paragraph","spans":[{"id":"s","text":"nested item %d"}]}]}]}`, i, i, i, i)
		i++
	}
	b.WriteString(`],"edges":[`)
	for j := 0; j < i/10; j++ {
		if j > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"subject":"bend:big#blk-%x.spn-1","predicate":"supports","object":"bend:bagaaierafoo#blk-%x","meta":{"weight":0.5}}`, j, j)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkParseAndID measures reading a ~1 MB document and computing its id,
// the work done for every document and every model output.
func BenchmarkParseAndID(b *testing.B) {
	data := largeDocument(1 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ID(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBaselineDecodeSHA256 is the yardstick for BenchmarkParseAndID:
// the least any reader of the same bytes does (encoding/json into any) plus
// hashing them once. ParseAndID does more (member order, number literals,
// the typed model, canonical form), so the goal is a small multiple of this,
// not parity.
func BenchmarkBaselineDecodeSHA256(b *testing.B) {
	data := largeDocument(1 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		_ = sha256.Sum256(data)
	}
}

func BenchmarkParse(b *testing.B) {
	data := largeDocument(1 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	d, err := Parse(largeDocument(1 << 20))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if errs := Validate(d); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
