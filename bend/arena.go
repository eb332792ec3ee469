package bend

import "sync"

// An arena holds the Values and slices of one Parse. Parse reads the JSON
// into a tree of Values and the typed model out of it; the tree is then
// garbage, apart from the few values the model keeps verbatim (Extra, meta,
// raw marks), which the reader copies out (reader.clone). The arena goes
// back to a pool for the next Parse, so that reading a document allocates
// the model, not the tree: the tree is five times the model's size on the
// BenchmarkParse document. ParseValue, whose caller keeps the tree, does not
// use one.
type arena struct {
	values  slab[Value]
	members slab[Member]
	elems   slab[*Value]
}

// maxPooled is the most Values an arena may hold and still be pooled, so
// that one huge document does not pin its tree's memory for good.
const maxPooled = 1 << 18

func (a *arena) value(v Value) *Value {
	s := a.values.take(1)
	s[0] = v
	return &s[0]
}

// reset clears what the last parse left, so that the pool pins no strings,
// and reports whether the arena is small enough to keep.
func (a *arena) reset() bool {
	return a.values.reset() <= maxPooled && a.members.reset() <= maxPooled && a.elems.reset() <= maxPooled
}

// A slab hands out slices of T from chunks it keeps across resets.
type slab[T any] struct {
	chunks [][]T // each filled up to its length
	cur    int   // the chunk being filled
}

const slabChunk = 1024

// take returns n zero Ts, contiguous, with no room to append into the
// slab's next ones.
func (s *slab[T]) take(n int) []T {
	for ; s.cur < len(s.chunks); s.cur++ {
		c := s.chunks[s.cur]
		if len(c)+n <= cap(c) {
			s.chunks[s.cur] = c[:len(c)+n]
			return c[len(c) : len(c)+n : len(c)+n]
		}
	}
	c := make([]T, n, max(n, slabChunk))
	s.chunks = append(s.chunks, c)
	return c[:n:n]
}

// reset zeroes what was taken and returns the slab's capacity.
func (s *slab[T]) reset() int {
	total := 0
	for i, c := range s.chunks {
		clear(c)
		s.chunks[i] = c[:0]
		total += cap(c)
	}
	s.cur = 0
	return total
}

var parsers = sync.Pool{New: func() any { return &parser{arena: &arena{}} }}

// pooledParser returns a parser with an arena, for Parse.
func pooledParser(data []byte) *parser {
	p := parsers.Get().(*parser)
	p.data = data
	return p
}

// release returns p to the pool, unless its arena grew past maxPooled.
// Nothing p handed out may be used afterwards.
func (p *parser) release() {
	clear(p.members[:cap(p.members)])
	clear(p.elems[:cap(p.elems)])
	*p = parser{arena: p.arena, ptr: p.ptr[:0], members: p.members[:0], elems: p.elems[:0]}
	if p.arena.reset() {
		parsers.Put(p)
	}
}
