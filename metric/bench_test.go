package metric

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// largeDocument returns a valid document of about size bytes: headings,
// paragraphs of marked and linked spans, nested lists, a code block every
// so often, and edges between them. Documents with different seeds share
// no block id and no sentence.
func largeDocument(tb testing.TB, size int, seed uint64) *bend.Document {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	words := strings.Fields("memory loop closes when consolidation completes the gateway retries each request with jittered backoff until a deadline passes and records every attempt in the audit log so that operators can replay it later")
	sentence := func() string {
		n := 6 + r.IntN(14)
		w := make([]string, n)
		for i := range w {
			w[i] = words[r.IntN(len(words))]
		}
		return strings.ToUpper(w[0][:1]) + w[0][1:] + " " + strings.Join(w[1:], " ") + fmt.Sprintf(" (%d).", r.IntN(100000))
	}
	var b strings.Builder
	id := "bagaaierabig" + fmt.Sprint(seed)
	fmt.Fprintf(&b, `{"bendscript":"0.1","id":%q,"vocabulary":"core","title":"Large document %d","meta":{"n":1},"blocks":[`, id, seed)
	p := fmt.Sprintf("s%d", seed)
	var edges []string
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		switch i % 8 {
		case 0:
			fmt.Fprintf(&b, `{"id":"blk-%s-%x","kind":"heading","level":2,"spans":[{"id":"spn-1","text":%q}]}`, p, i, sentence())
		case 5:
			fmt.Fprintf(&b, `{"id":"blk-%s-%x","kind":"list","ordered":false,"items":[{"id":"itm-%s-%x","kind":"list-item","blocks":[{"id":"par-%s-%x","kind":"paragraph","spans":[{"id":"spn-1","text":%q}]}]}]}`, p, i, p, i, p, i, sentence())
		case 7:
			fmt.Fprintf(&b, `{"id":"blk-%s-%x","kind":"code","language":"go","text":%q}`, p, i, "for i := 0; i < n; i++ {\n\t// "+sentence()+"\n}\n")
		default:
			fmt.Fprintf(&b, `{"id":"blk-%s-%x","kind":"paragraph","spans":[{"id":"spn-1","text":%q},{"id":"spn-2","text":%q,"marks":["bold",{"kind":"link","target":"bend:%s#blk-%s-%x","predicate":"cites"}]},{"id":"spn-3","text":%q,"marks":[{"kind":"link","target":"https://example.org/%d"}]}]}`,
				p, i, sentence(), sentence(), id, p, i/2, sentence(), i)
			if i%3 == 0 {
				edges = append(edges, fmt.Sprintf(`{"subject":"bend:#blk-%s-%x.spn-1","predicate":"supports","object":"bend:bagaaieraother#blk-%x","meta":{"weight":0.5}}`, p, i, i))
			}
		}
	}
	b.WriteString(`],"edges":[` + strings.Join(edges, ",") + `]}`)
	d, err := bend.Parse([]byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	if errs := bend.Validate(d); len(errs) > 0 {
		tb.Fatal(errs[0])
	}
	return d
}

// nearCopy returns d with five scattered mistakes: text altered near the
// start and near the end, a mark added and a block renamed in the middle,
// and an edge dropped.
func nearCopy(d *bend.Document) *bend.Document {
	c := d.Clone()
	// para returns the first top-level paragraph at index i or after.
	para := func(i int) *bend.Block {
		for c.Blocks[i].Kind != bend.KindParagraph {
			i++
		}
		return c.Blocks[i]
	}
	n := len(c.Blocks)
	for _, i := range []int{1, n - 9} {
		s := para(i).Spans[0]
		t := strings.Replace(*s.Text, "the", "THE", 1) + " Extra words."
		s.Text = &t
	}
	mid := para(n / 2).Spans[0]
	mid.Marks = append(mid.Marks, &bend.Mark{Name: "italic"})
	para(n / 3).Kind = bend.KindQuote
	c.Edges = c.Edges[1:]
	return c
}

func benchScoreDocument(b *testing.B, out func(*bend.Document) *bend.Document) {
	src := largeDocument(b, 1<<20, 1)
	o := out(src)
	b.SetBytes(int64(len(bend.MarshalCompact(src))))
	b.ReportAllocs()
	var r Result
	for b.Loop() {
		r = ScoreDocument(src, src, nil, o, DefaultWeights())
	}
	b.ReportMetric(r.Drift, "drift")
}

// BenchmarkScoreDocument measures the metric alone on a ~1 MB document,
// parsing excluded.
func BenchmarkScoreDocument(b *testing.B) {
	b.Run("identical", func(b *testing.B) { benchScoreDocument(b, (*bend.Document).Clone) })
	b.Run("near-copy", func(b *testing.B) { benchScoreDocument(b, nearCopy) })
	b.Run("unrelated", func(b *testing.B) {
		benchScoreDocument(b, func(*bend.Document) *bend.Document { return largeDocument(b, 1<<20, 2) })
	})
}

// BenchmarkScore measures a whole score of a ~1 MB raw answer, parsing the
// output included (the expected document is parsed once per task).
func BenchmarkScore(b *testing.B) {
	src := largeDocument(b, 1<<20, 1)
	raw := string(bend.Marshal(nearCopy(src)))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		Score(src, src, nil, raw, DefaultWeights())
	}
}

// manyMembers is a document whose meta object holds members of about
// size bytes in all: the shape on which a linear member lookup made the
// lossless comparison quadratic (issue 45).
func manyMembers(tb testing.TB, size int) *bend.Document {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"bendscript":"0.1","id":"x","vocabulary":"core","meta":{`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteString(`},"blocks":[],"edges":[]}`)
	d, err := bend.Parse([]byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// BenchmarkLosslessMembers measures the lossless comparison of a document
// with itself when one object holds 1, 4 and 16 MiB of members, in the
// same order and reversed (issue 45: with a linear lookup per key, 3× the
// members took 11-13× the time). Same order is linear; reversed sorts
// the keys once.
func BenchmarkLosslessMembers(b *testing.B) {
	same := func(s string) string { return s }
	for _, mib := range []int{1, 4, 16} {
		d := manyMembers(b, mib<<20-64)
		r := d.Clone()
		slices.Reverse(r.Meta.Members)
		for _, c := range tabletest.Cases(b, []struct {
			name   string
			out    *bend.Document
			reason string
		}{{"same", d, "the output kept the object"}, {"reversed", r, "another order: the keys are sorted"}}) {
			b.Run(fmt.Sprintf("%s/%dMiB", c.name, mib), func(b *testing.B) {
				b.SetBytes(int64(mib << 20))
				for b.Loop() {
					if diffs, _ := losslessDiff(d, c.out, same, same); len(diffs) > 0 {
						b.Fatal(diffs)
					}
				}
			})
		}
	}
}
