package viewer

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/scoring"
)

// Spool keeps what the viewer shows of each transcript's output (Output)
// in an unnamed temporary file instead of memory: the score phase puts
// each output as it is scored, and WriteHTML reads them back one at a
// time, in the order of the scores. So a report of many transcripts is
// written holding one diff at a time, never all of them (issue 25: the
// diffs of 24,000 transcripts held 185 MB). Put and Output may be called
// from several goroutines.
type Spool struct {
	mu  sync.Mutex
	f   *os.File
	end int64
	at  []span // by slot; n == 0: nothing put
	// scores are where each slot's whole score lies (PutScore), by slot.
	scores []span
	err    error // the first write failure
}

// span is where one slot's encoded Output lies in the file.
type span struct {
	off int64
	n   int
}

// NewSpool makes a spool of n slots in the temporary directory. The file
// is removed at once where the system allows an open file to be (so that
// a killed process leaves nothing behind), else by Close.
func NewSpool(n int) (*Spool, error) {
	f, err := os.CreateTemp("", "harness-viewer-*")
	if err != nil {
		return nil, fmt.Errorf("viewer spool: %w", err)
	}
	_ = os.Remove(f.Name())
	return &Spool{f: f, at: make([]span, n), scores: make([]span, n)}, nil
}

// Put stores slot's output. A write failure is kept and returned by
// every later Output.
func (s *Spool) Put(slot int, o Output) {
	b := appendOutput(nil, o)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	s.err = s.write(&s.at[slot], b)
}

// PutScore stores slot's whole score, for the detail the viewer shows of
// it (its evidence), so that the score phase need keep only its Compact
// form (issue 55). A write failure is kept and returned by every later
// Output and Score.
func (s *Spool) PutScore(slot int, sc scoring.Score) {
	b, err := json.Marshal(sc)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	if err != nil {
		s.err = fmt.Errorf("viewer spool: %w", err)
		return
	}
	s.err = s.write(&s.scores[slot], b)
}

// write appends b to the file and records where it lies in *at; s.mu is
// held.
func (s *Spool) write(at *span, b []byte) error {
	if _, err := s.f.WriteAt(b, s.end); err != nil {
		return fmt.Errorf("viewer spool: %w", err)
	}
	*at = span{s.end, len(b)}
	s.end += int64(len(b))
	return nil
}

// Score reads slot's whole score back (PutScore); ok is false when none
// was put.
func (s *Spool) Score(slot int) (sc scoring.Score, ok bool, err error) {
	s.mu.Lock()
	sp, err := s.scores[slot], s.err
	s.mu.Unlock()
	if err != nil || sp.n == 0 {
		return scoring.Score{}, false, err
	}
	b := make([]byte, sp.n)
	if _, err := s.f.ReadAt(b, sp.off); err != nil {
		return scoring.Score{}, false, fmt.Errorf("viewer spool: %w", err)
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		return scoring.Score{}, false, fmt.Errorf("viewer spool: %w", errSpool)
	}
	return sc, true, nil
}

// Output reads slot's output back; a slot never put has the zero Output.
func (s *Spool) Output(slot int) (Output, error) {
	s.mu.Lock()
	sp, err := s.at[slot], s.err
	s.mu.Unlock()
	if err != nil || sp.n == 0 {
		return Output{}, err
	}
	b := make([]byte, sp.n)
	if _, err := s.f.ReadAt(b, sp.off); err != nil {
		return Output{}, fmt.Errorf("viewer spool: %w", err)
	}
	return readOutput(b)
}

// Close closes and removes the file.
func (s *Spool) Close() error {
	err := s.f.Close()
	if rerr := os.Remove(s.f.Name()); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}

// appendOutput encodes o: a byte of flags (Identical, Aligned, Truncated),
// the strings NoDiff, Raw and DiffCut, then the hunks, each its header and
// lines, then the attempt lines. Strings are length-prefixed bytes, so any text round-trips
// exactly; counts and line numbers are varints.
func appendOutput(b []byte, o Output) []byte {
	var flags byte
	for i, f := range []bool{o.Identical, o.Aligned, o.Truncated} {
		if f {
			flags |= 1 << i
		}
	}
	b = append(b, flags)
	b = appendString(appendString(appendString(b, o.NoDiff), o.Raw), o.DiffCut)
	b = binary.AppendUvarint(b, uint64(len(o.Hunks)))
	for _, h := range o.Hunks {
		b = appendString(b, h.Header)
		b = binary.AppendUvarint(b, uint64(len(h.Lines)))
		for _, l := range h.Lines {
			b = appendString(b, l.Op)
			b = binary.AppendVarint(b, int64(l.Old))
			b = binary.AppendVarint(b, int64(l.New))
			b = appendString(b, l.Text)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(o.Attempts)))
	for _, a := range o.Attempts {
		b = appendString(b, a)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// errSpool is a record that does not decode: the file was damaged.
var errSpool = errors.New("viewer spool: a damaged record")

// outputReader decodes what appendOutput wrote; the first error sticks.
type outputReader struct {
	b   []byte
	err error
}

func (r *outputReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = errSpool, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *outputReader) varint() int {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err, r.b = errSpool, nil
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *outputReader) string() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err, r.b = errSpool, nil
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// readOutput decodes one record of appendOutput.
func readOutput(b []byte) (Output, error) {
	if len(b) == 0 {
		return Output{}, errSpool
	}
	r := &outputReader{b: b[1:]}
	o := Output{Identical: b[0]&1 != 0, Aligned: b[0]&2 != 0, Truncated: b[0]&4 != 0}
	o.NoDiff, o.Raw, o.DiffCut = r.string(), r.string(), r.string()
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		h := linediff.Hunk{Header: r.string()}
		for k := r.uvarint(); k > 0 && r.err == nil; k-- {
			h.Lines = append(h.Lines, linediff.Line{Op: r.string(), Old: r.varint(), New: r.varint(), Text: r.string()})
		}
		o.Hunks = append(o.Hunks, h)
	}
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		o.Attempts = append(o.Attempts, r.string())
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errSpool
	}
	return o, r.err
}
