package ladder

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultRungs are the rungs of the size ladder when none are asked for:
// 8, 32, 128 and 512 KiB. Help texts print them with RungList.
var DefaultRungs = []int{8 << 10, 32 << 10, 128 << 10, 512 << 10}

// RungList returns rungs as ParseRungs reads them, e.g. "8k,32k,128k,512k".
func RungList(rungs []int) string {
	names := make([]string, len(rungs))
	for i, n := range rungs {
		names[i] = RungName(n)
	}
	return strings.Join(names, ",")
}

// MaxSize is the largest target, 2 MiB (four times the §8 ladder's top
// rung). It bounds a run's memory, which grows with the rung and with the
// jobs in flight: 8 MiB rungs in json-patch peaked at 4–6 GB with one
// offline model and 12 GB with two models × three formats (issue 32);
// 2 MiB with two models × three formats peaks at 1.1 GB.
const MaxSize = 2 << 20

// Tolerance is how far a rung's size may be from its target, as a fraction:
// a rung of target T has between ⌈T·(1−Tolerance)⌉ and ⌊T·(1+Tolerance)⌋
// bytes. Whole documents are 1.4–19 KB, so the tolerance is what lets small
// rungs be made of whole documents at all.
const Tolerance = 0.15

// Bounds returns the smallest and largest size a rung of target bytes may
// have.
func Bounds(target int) (lo, hi int) {
	// Rounded down, so that the range only ever shrinks.
	d := int(float64(target) * Tolerance)
	return target - d, target + d
}

// ParseRungs reads a comma-separated list of rungs, each its target size: a
// number of bytes, or a number followed by k (KiB) or m (MiB), e.g.
// "8k,32k,128k,512k". Rungs must be positive and distinct, since each names
// a file.
func ParseRungs(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		n, err := parseRung(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("rung %s given twice", RungName(n))
		}
		seen[n] = true
		out = append(out, n)
	}
	return out, nil
}

func parseRung(s string) (int, error) {
	unit := 1
	num := s
	switch {
	case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
		unit, num = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "m") || strings.HasSuffix(s, "M"):
		unit, num = 1<<20, s[:len(s)-1]
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || n > MaxSize/unit {
		return 0, fmt.Errorf("rung %q: want a positive number of bytes up to 2m, optionally with k or m", s)
	}
	return n * unit, nil
}

// RungName returns the name of a rung of n bytes, as ParseRungs reads it:
// "8k" for 8192, "1m" for 1048576, "5000" for 5000.
func RungName(n int) string {
	switch {
	case n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "m"
	case n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + "k"
	}
	return strconv.Itoa(n)
}
