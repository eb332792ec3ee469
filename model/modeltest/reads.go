package modeltest

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// SettleLimit bounds every wait of this package for an event that a
// correct program brings about in milliseconds ([Server.WaitBilling],
// [Reads.Wait]): long enough that no loaded machine reaches it, so a test
// that reaches it has found a program that never brings the event about.
const SettleLimit = time.Minute

// Reads is what HTTP clients built during a test read of their response
// bodies: see [WatchReads].
type Reads struct {
	mu     sync.Mutex
	bodies []*tappedBody
}

// WatchReads wraps http.DefaultTransport for the rest of t, so that t can
// wait until a client has read given bytes of a response: an event that
// no server sees (a server knows what it sent, not what the client has
// read), and the one a test needs before it interrupts a stream whose
// first chunk must be in the archive. The model client takes
// http.DefaultTransport when it is built (model.NewOpenRouter keeps a
// wrapped one as it is), so only clients built after the call are
// watched.
//
// http.DefaultTransport is the process's: WatchReads marks t with
// t.Setenv, which makes a parallel test fail, so that no other test runs
// while it is wrapped (go test runs parallel tests only after the
// sequential ones).
func WatchReads(t *testing.T) *Reads {
	t.Helper()
	t.Setenv("MODELTEST_WATCH_READS", "1")
	r := &Reads{}
	old := http.DefaultTransport
	http.DefaultTransport = readsTransport{base: old, r: r}
	t.Cleanup(func() { http.DefaultTransport = old })
	return r
}

// Wait waits until n response bodies have each given their client a
// whole server-sent event (through the blank line that ends it) that
// contains s. After [SettleLimit] it marks t failed and returns false.
// It may be called from any goroutine (it never calls t.FailNow), such
// as the one that interrupts the client once it returns.
func (r *Reads) Wait(t testing.TB, n int, s string) bool {
	deadline := time.Now().Add(SettleLimit)
	for r.count(s) < n {
		if time.Now().After(deadline) {
			t.Errorf("after %v, %d response bodies gave their client an event holding %q; want %d", SettleLimit, r.count(s), s, n)
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

// count is the number of bodies that have given their client a whole
// event holding s.
func (r *Reads) count(s string) int {
	r.mu.Lock()
	bodies := r.bodies
	r.mu.Unlock()
	n := 0
	for _, b := range bodies {
		if b.gave(s) {
			n++
		}
	}
	return n
}

// readsTransport records what every response body gives its reader.
type readsTransport struct {
	base http.RoundTripper
	r    *Reads
}

func (t readsTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(req)
	if res != nil && res.Body != nil {
		b := &tappedBody{rc: res.Body}
		t.r.mu.Lock()
		t.r.bodies = append(t.r.bodies, b)
		t.r.mu.Unlock()
		res.Body = b
	}
	return res, err
}

// tapKeep bounds what a tapped body keeps of what it gave: a test waits
// for the first events of a stream, not for megabytes.
const tapKeep = 1 << 20

// tappedBody keeps the first tapKeep bytes its reader was given.
type tappedBody struct {
	rc   io.ReadCloser
	mu   sync.Mutex
	read []byte
}

func (b *tappedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.mu.Lock()
		if keep := min(n, tapKeep-len(b.read)); keep > 0 {
			b.read = append(b.read, p[:keep]...)
		}
		b.mu.Unlock()
	}
	return n, err
}

func (b *tappedBody) Close() error { return b.rc.Close() }

// gave reports whether the body has given its reader an event holding s,
// through the blank line that ends it.
func (b *tappedBody) gave(s string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := bytes.Index(b.read, []byte(s))
	return i >= 0 && bytes.Contains(b.read[i+len(s):], []byte("\n\n"))
}
