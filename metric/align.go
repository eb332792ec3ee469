package metric

import "sort"

// interner maps equal strings to equal small integers, so that sequences of
// lines, words or block tokens compare as integers.
type interner struct {
	ids map[string]int32
}

func newInterner() *interner { return &interner{ids: make(map[string]int32)} }

func (in *interner) id(s string) int32 {
	if id, ok := in.ids[s]; ok {
		return id
	}
	id := int32(len(in.ids))
	in.ids[s] = id
	return id
}

func (in *interner) all(ss []string) []int32 {
	out := make([]int32, len(ss))
	for i, s := range ss {
		out[i] = in.id(s)
	}
	return out
}

// trimInts returns the lengths of the common prefix and the common suffix of
// a and b (not overlapping).
func trimInts(a, b []int32) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// span is a half-open range [lo, hi) of a sequence.
type span struct{ lo, hi int }

// gap is a pair of ranges, one in each sequence, between two anchors.
type gap struct{ a, b span }

// anchorGaps aligns a and b as patience diff does: the tokens that occur
// exactly once in a and exactly once in b are candidate anchors, and the
// longest chain of them increasing in both sequences is kept (patience
// sorting, O(k log k) for k candidates). It returns the ranges between
// consecutive anchors, in order, including empty ones; with no anchor it
// returns one gap covering both sequences. ids must be smaller than n.
//
// The alignment is deterministic and O(len(a)+len(b)+n) besides the sort;
// it is a heuristic: a diff through these anchors may be longer than the
// shortest one, never shorter.
func anchorGaps(a, b []int32, n int) []gap {
	// pos holds index+1 of a token's only occurrence, or -1 when repeated.
	posA, posB := make([]int32, n), make([]int32, n)
	mark := func(pos []int32, seq []int32) {
		for i, t := range seq {
			if pos[t] == 0 {
				pos[t] = int32(i + 1)
			} else {
				pos[t] = -1
			}
		}
	}
	mark(posA, a)
	mark(posB, b)
	var ai, bj []int
	for i, t := range a {
		if posA[t] > 0 && posB[t] > 0 {
			ai = append(ai, i)
			bj = append(bj, int(posB[t]-1))
		}
	}
	chain := longestIncreasing(bj)
	out := make([]gap, 0, len(chain)+1)
	pa, pb := 0, 0
	for _, c := range chain {
		out = append(out, gap{span{pa, ai[c]}, span{pb, bj[c]}})
		pa, pb = ai[c]+1, bj[c]+1
	}
	return append(out, gap{span{pa, len(a)}, span{pb, len(b)}})
}

// longestIncreasing returns the indexes of a longest strictly increasing
// subsequence of xs, in order. Among longest ones it returns the one that
// patience sorting finds, which depends only on xs.
func longestIncreasing(xs []int) []int {
	var tails []int // tails[k]: index of the smallest tail of a chain of length k+1
	prev := make([]int, len(xs))
	for i, x := range xs {
		k := sort.Search(len(tails), func(k int) bool { return xs[tails[k]] >= x })
		prev[i] = -1
		if k > 0 {
			prev[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	if len(tails) == 0 {
		return nil
	}
	out := make([]int, len(tails))
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = k
	}
	return out
}
