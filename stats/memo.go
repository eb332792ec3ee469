package stats

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"sync"
)

// The intervals this process has computed, by their inputs. A bootstrap
// is a pure function of (statistic, xs, seed, key), so an interval asked
// for again is the same bits whether computed or remembered; a test run
// builds the same reports hundreds of times, and under the race detector
// the bootstraps were most of go test -race's time (report's tests: 35 s
// without the memo, 14 s with it). The memo holds at most memoMax
// intervals, by the SHA-256 of their inputs, and is emptied when full, so
// a long process (a rescore of many runs) does not grow with what it has
// seen: at most about 200 KB.
var memo = struct {
	sync.Mutex
	m map[[sha256.Size]byte][2]float64
}{m: map[[sha256.Size]byte][2]float64{}}

const memoMax = 4096

// memoKey is the SHA-256 of an interval's inputs: the statistic and its
// parameter, the seed, the stream key and every value's bits.
func memoKey(statistic string, p float64, xs []float64, seed int64, key string) [sha256.Size]byte {
	b := make([]byte, 0, len(statistic)+len(key)+8*(len(xs)+3))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(statistic)))
	b = append(b, statistic...)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p))
	b = binary.LittleEndian.AppendUint64(b, uint64(seed))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(key)))
	b = append(b, key...)
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return sha256.Sum256(b)
}

// ForgetIntervals empties the memo: for a benchmark that measures a build
// from scratch on every iteration.
func ForgetIntervals() {
	memo.Lock()
	clear(memo.m)
	memo.Unlock()
}

// remembered returns the interval of k, computing it (compute) the first
// time.
func remembered(k [sha256.Size]byte, compute func() (low, high float64)) (low, high float64, ok bool) {
	memo.Lock()
	v, seen := memo.m[k]
	memo.Unlock()
	if seen {
		return v[0], v[1], true
	}
	low, high = compute()
	memo.Lock()
	if len(memo.m) >= memoMax {
		clear(memo.m)
	}
	memo.m[k] = [2]float64{low, high}
	memo.Unlock()
	return low, high, true
}
