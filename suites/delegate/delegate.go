// Package delegate builds the delegate suite: per corpus document a chain
// of R round trips (issue 48, after DELEGATE-52: Laban, Schnabel and
// Neville, "LLMs Corrupt Your Documents When You Delegate", arXiv
// 2604.15597), each a forward edit drawn from the document's pool of
// reversible edits (instructions/pool/NN.json, task.Pair) and the backward
// edit that returns the document to its original state, every step given
// the model's own previous answer.
//
// # Order
//
// The forward edits of a chain are drawn in a seeded shuffle that covers
// the pool evenly: round trips 1..P use the P pairs in one shuffled order,
// P+1..2P in another, and so on, so over R round trips each pair is used
// ⌊R/P⌋ or ⌈R/P⌉ times; a pass does not start with the pair the pass
// before ended with (the first two swap). The shuffle is a Fisher–Yates shuffle driven by
// SHA-256 of (seed, document, pass, position): the same seed gives the
// same order on every machine and Go version, another seed another order.
// The order is recorded in the manifest (task.Set.Order); a rescore or
// resume draws it again and refuses a run whose recorded order differs.
//
// # Tasks
//
// Interaction i (1-based; odd: a forward edit, even: its backward edit)
// of document NN is task NN-dIII (01-d007), Chain NN, Step i. Its Source
// is what an exact model would have been given (the original before a
// forward edit, the forward edit's expected document before a backward
// one) and its Expected is the gold chain's document after step i: the
// forward edit's expected document, or the original itself after a
// backward edit. What the model is actually given is its own previous
// answer (jobs.Chains), so the score of an even step is the drift of the
// model's document after i interactions against the original, the
// quantity RS@i is made of (docs/interpretations.md, "Beyond §8:
// delegation", "Each step is scored against the gold chain").
package delegate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/task"
)

// DefaultRoundTrips is a chain's round trips (DELEGATE-52's 10 = 20
// interactions); MaxRoundTrips bounds --round-trips (100 interactions,
// three-digit step ids).
const (
	DefaultRoundTrips = 10
	MaxRoundTrips     = 50
)

// TaskID is the id of interaction step (1-based) of document NN's chain.
func TaskID(doc string, step int) string { return fmt.Sprintf("%s-d%03d", doc, step) }

// RoundTrip reports whether step ends a round trip (its expected document
// is the original).
func RoundTrip(step int) bool { return step > 0 && step%2 == 0 }

// Order returns the forward pairs of n round trips over pool, drawn with
// seed for the named document: successive seeded shuffles of the whole
// pool, so each pair is used within one of evenly.
func Order(pool []*task.Pair, n int, seed int64, document string) []*task.Pair {
	if len(pool) == 0 {
		return nil
	}
	out := make([]*task.Pair, 0, n)
	for pass := 0; len(out) < n; pass++ {
		perm := slices.Clone(pool)
		for i := len(perm) - 1; i > 0; i-- {
			j := draw(seed, document, pass, i, i+1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		if len(out) > 0 && len(perm) > 1 && perm[0] == out[len(out)-1] {
			perm[0], perm[1] = perm[1], perm[0] // no pair twice in a row
		}
		out = append(out, perm[:min(len(perm), n-len(out))]...)
	}
	return out
}

// draw is a number in [0, bound) from SHA-256 of the shuffle's inputs,
// by rejection so that every value is as likely.
func draw(seed int64, document string, pass, pos, bound int) int {
	limit := ^uint64(0) - ^uint64(0)%uint64(bound)
	for k := uint64(0); ; k++ {
		h := sha256.New()
		fmt.Fprintf(h, "delegate order\x00%d\x00%s\x00%d\x00%d\x00%d", seed, document, pass, pos, k)
		v := binary.BigEndian.Uint64(h.Sum(nil))
		if v < limit {
			return int(v % uint64(bound))
		}
	}
}

// Build returns the delegate suite's task set: one chain of 2·roundTrips
// steps per corpus document that has a pool of at least task.MinPairs
// pairs (corpus.Pairs, or the pools under corpus.PoolFS when not loaded),
// the forward order drawn with seed. recorded, when not empty, is the
// order a run's manifest holds: a set that draws another is refused.
func Build(corpus *task.Set, roundTrips int, seed int64, recorded []string) (*task.Set, error) {
	if roundTrips < 1 || roundTrips > MaxRoundTrips {
		return nil, fmt.Errorf("a chain takes 1 to %d round trips, not %d", MaxRoundTrips, roundTrips)
	}
	pooled, err := pools(corpus)
	if err != nil {
		return nil, err
	}
	set := &task.Set{}
	for _, d := range corpus.Documents {
		pool := pooled.PoolOf(d.Name)
		if len(pool) < task.MinPairs {
			set.Skipped = append(set.Skipped, fmt.Sprintf("%s: a pool of %d reversible edits, want at least %d", d.Name, len(pool), task.MinPairs))
			continue
		}
		nn := d.Name[:2]
		order := Order(pool, roundTrips, seed, d.Name)
		ids := make([]string, len(order))
		for r, p := range order {
			ids[r] = p.ID
			set.Tasks = append(set.Tasks, step(nn, 2*r+1, p, p.Forward, "forward"), step(nn, 2*r+2, p, p.Backward, "backward"))
		}
		set.Documents = append(set.Documents, d)
		set.Order = append(set.Order, nn+": "+strings.Join(ids, " "))
	}
	if len(recorded) > 0 && !slices.Equal(recorded, set.Order) {
		return nil, fmt.Errorf("the delegate order drawn now differs from the run's recorded order (a changed pool or seed): %s", firstDiff(recorded, set.Order))
	}
	slices.SortFunc(set.Tasks, func(a, b *task.Task) int { return strings.Compare(a.ID, b.ID) })
	return set, nil
}

// step is interaction s of document nn's chain: side (pair p's forward or
// backward task) under the step's id, hashed with its place in the chain.
func step(nn string, s int, p *task.Pair, side *task.Task, dir string) *task.Task {
	h := sha256.New()
	fmt.Fprintf(h, "delegate %s step %d: %s %s %s\n", nn, s, dir, p.ID, side.Hash)
	c := *side
	c.ID, c.Step, c.Chain, c.Delta = TaskID(nn, s), s, nn, RoundTrip(s)
	c.Hash = hex.EncodeToString(h.Sum(nil))
	c.Covers = append([]string{fmt.Sprintf("delegate step %d: %s %s (%s)", s, p.ID, dir, p.Kind)}, p.Covers...)
	c.Forward = nil
	return &c
}

func firstDiff(a, b []string) string {
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("recorded %q, drawn %q", x, y)
		}
	}
	return ""
}
