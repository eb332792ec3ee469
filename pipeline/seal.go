package pipeline

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
)

// SealKeyEnv names the environment variable whose value seals a run's
// archive (Seal): without it, archives are unsealed.
const SealKeyEnv = "HARNESS_SEAL_KEY"

// SealName is the file in a run directory that holds its seal.
const SealName = "seal.json"

// What the transcript hashes protect against, said wherever integrity
// shows: an unkeyed hash is recomputed by anyone who can write the
// archive (issue 45: an edited, re-hashed archive rescored FAIL → PASS
// with no word).
const (
	Unsealed = "unsealed: the transcript hashes detect accidental change, not an edit by someone who can write the archive (set " + SealKeyEnv + " to seal runs)"
	// SealedUnchecked is said of a sealed run rescored without the key.
	SealedUnchecked = "sealed, not verified: " + SealKeyEnv + " is not set"
	// SealRemoved is said, first and loudly, of a run that was sealed
	// (run.json's sealed_at, or the report it recorded) and whose
	// seal.json is gone, rescored without the key.
	SealRemoved = report.IntegritySealRemoved + ": the run was sealed with " + SealKeyEnv + ", and its " + SealName + " is gone: the archive may have been edited since, and nothing here can tell"
)

// ErrSealBroken is returned when a run's seal does not verify.
var ErrSealBroken = errors.New("the archive's seal does not verify")

// ErrSealRemoved is returned, with the key, for a run that was sealed and
// whose seal.json is gone.
var ErrSealRemoved = errors.New("the seal was removed")

// ErrSealedNoKey refuses to change a sealed run without the key: the
// change would break its seal, and without the key it cannot re-seal.
var ErrSealedNoKey = errors.New("the run is sealed, and " + SealKeyEnv + " is not set")

// sealFile is the seal: an HMAC-SHA256, keyed by SealKeyEnv, over the
// digest of every file of the run directory (sealMessage).
type sealFile struct {
	Schema    int    `json:"schema"`
	Algorithm string `json:"algorithm"`
	Files     int    `json:"files"`
	MAC       string `json:"mac"`
	// ReconciledAt, when set, says that `harness runs --reconcile` added
	// reconciled.json to the sealed run and re-sealed it, and when (RFC
	// 3339): it is part of what the MAC covers (sealMessage).
	ReconciledAt string `json:"reconciled_at,omitempty"`
}

// MaxSealed bounds one file read for the seal: a transcript holds at most
// a 64 MB response and its request.
const MaxSealed = 256 << 20

// sealMessage is what the seal covers: a line "sha256 path" for every
// regular file of the run directory but the seal, the lock and temporary
// files, by path: the manifest, every transcript and every superseded
// one. It returns the message and the number of files.
func sealMessage(runDir string) ([]byte, int, error) {
	var paths []string
	err := filepath.WalkDir(runDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() || name == SealName || name == LockName || strings.HasPrefix(name, ".tmp-") {
			return nil
		}
		rel, err := filepath.Rel(runDir, p)
		paths = append(paths, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	slices.Sort(paths)
	msg := []byte("bendscript harness seal v1\n")
	for _, rel := range paths {
		f, err := regularfile.Open(filepath.Join(runDir, filepath.FromSlash(rel)), MaxSealed)
		if err != nil {
			return nil, 0, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, 0, err
		}
		msg = fmt.Appendf(msg, "%x %s\n", h.Sum(nil), rel)
	}
	return msg, len(paths), nil
}

func mac(key, msg []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)
}

// Seal writes the run directory's seal with key and returns what the
// report says of it.
func Seal(runDir string, key []byte) (string, error) { return writeSeal(runDir, key, "") }

// reconciledLine is what the seal's message adds for a seal that a
// reconcile re-made: its time is covered by the MAC.
func reconciledLine(at string) string {
	if at == "" {
		return ""
	}
	return "reconciled " + at + "\n"
}

// writeSeal seals runDir with key; reconciledAt, when set, records that
// a reconcile re-sealed it then.
func writeSeal(runDir string, key []byte, reconciledAt string) (string, error) {
	msg, n, err := sealMessage(runDir)
	if err != nil {
		return "", fmt.Errorf("sealing the archive: %w", err)
	}
	msg = append(msg, reconciledLine(reconciledAt)...)
	s := sealFile{Schema: 1, Algorithm: "hmac-sha256", Files: n, MAC: hex.EncodeToString(mac(key, msg)), ReconciledAt: reconciledAt}
	err = atomicfile.Write(filepath.Join(runDir, SealName), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	})
	if err != nil {
		return "", fmt.Errorf("sealing the archive: %w", err)
	}
	return sealed(n, reconciledAt), nil
}

func sealed(n int, reconciledAt string) string {
	s := fmt.Sprintf("sealed with %s over %d files: verified", SealKeyEnv, n)
	if reconciledAt != "" {
		s += fmt.Sprintf(" (re-sealed at %s, when `harness runs --reconcile` added %s)", reconciledAt, ReconcileName)
	}
	return s
}

// sealedRun reports whether runDir was sealed: it has a seal.json, or
// its run.json says it was sealed (SealedAt).
func sealedRun(runDir string, m *transcript.Manifest) bool {
	if _, err := os.Lstat(filepath.Join(runDir, SealName)); err == nil {
		return true
	}
	return m != nil && m.SealedAt != nil
}

// CheckSeal says what protects the run directory's archive: Unsealed
// when it has no seal and was never sealed, SealedUnchecked when it has
// one and key is empty, the files the seal covers when it verifies with
// key; a seal that does not verify (a file changed, added or removed
// since, or another key) is ErrSealBroken. A run whose run.json says it
// was sealed and whose seal.json is gone is ErrSealRemoved with the key,
// SealRemoved without it.
func CheckSeal(runDir string, key []byte) (string, error) {
	b, err := regularfile.Read(filepath.Join(runDir, SealName), 1<<16)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		m, merr := transcript.ReadManifest(runDir)
		switch {
		case merr != nil || m.SealedAt == nil:
			return Unsealed, nil
		case len(key) > 0:
			return "", fmt.Errorf("%s: %w: run.json says the run was sealed at %s, and %s is gone", runDir, ErrSealRemoved, m.SealedAt.UTC().Format(time.RFC3339), SealName)
		}
		return SealRemoved, nil
	case err != nil:
		return "", err
	case len(key) == 0:
		return SealedUnchecked, nil
	}
	var s sealFile
	if err := json.Unmarshal(b, &s); err != nil || s.Schema != 1 || s.Algorithm != "hmac-sha256" {
		return "", fmt.Errorf("%s: %w: not a seal this harness writes", filepath.Join(runDir, SealName), ErrSealBroken)
	}
	msg, n, err := sealMessage(runDir)
	if err != nil {
		return "", err
	}
	msg = append(msg, reconciledLine(s.ReconciledAt)...)
	want, err := hex.DecodeString(s.MAC)
	if err != nil || !hmac.Equal(want, mac(key, msg)) {
		return "", fmt.Errorf("%s: %w: a file of the run changed, was added or removed after the run was sealed (it sealed %d files, the run holds %d), or %s is another key", runDir, ErrSealBroken, s.Files, n, SealKeyEnv)
	}
	return sealed(n, s.ReconciledAt), nil
}

// sealStopped seals with key what a run that stopped before its end
// (interrupted, out of credit, at the spending cap) leaves, and returns
// err, which stopped it. A resume with the key verifies the seal before it
// adds a transcript; one that stopped left the seal over the files it
// had replaced, and the next resume with the key refused the run's own
// archive as tampered. A new run stopped so is sealed as it stands too,
// so that its archive is covered until the resume that finishes it. A
// failure to seal is said beside err. Without a key, nothing.
func sealStopped(runDir string, key []byte, err error) error {
	if len(key) == 0 {
		return err
	}
	if _, serr := Seal(runDir, key); serr != nil {
		return errors.Join(err, serr)
	}
	return err
}

// seal seals the run directory with key (Seal) and returns what the
// report says; without a key it removes a seal an earlier invocation
// made (this one may have added transcripts since) and the run is
// Unsealed.
func seal(runDir string, key []byte) (string, error) {
	if len(key) > 0 {
		return Seal(runDir, key)
	}
	if err := os.Remove(filepath.Join(runDir, SealName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return Unsealed, nil
}

// recorded is what a rescore reads of the report the run wrote (its
// reports directory's <run-id>.json), read before the rescore replaces
// it: the integrity it recorded (Rescore: a seal removed with run.json's
// word of it) and what differsFrom compares; nil when it cannot be read.
// Only that is kept: the head's results grow with the answers (each
// document's repeats), and the whole head stayed live through the
// rescore, 8 MB of 48,000 answers (issue 55).
func recorded(m *transcript.Manifest) *report.Report {
	reps, err := report.ReadHeads([]string{filepath.Join(reportDir(m.Inputs), m.RunID+".json")})
	if err != nil || len(reps) != 1 {
		return nil
	}
	r := reps[0]
	kept := &report.Report{RunID: r.RunID, Integrity: r.Integrity, Verdict: r.Verdict, Failures: r.Failures}
	kept.Reading.Outcome = r.Reading.Outcome
	return kept
}

// differsFrom is the line a rescore prints first when its verdict, its
// §8.5 reading or its count of failures differs from the run's recorded
// report; "" when they
// agree or nothing was recorded.
func differsFrom(old, rep *report.Report) string {
	if old == nil {
		return ""
	}
	var parts []string
	if old.Verdict != rep.Verdict {
		parts = append(parts, fmt.Sprintf("verdict %s → %s", old.Verdict, rep.Verdict))
	}
	if old.Reading.Outcome != rep.Reading.Outcome {
		parts = append(parts, fmt.Sprintf("§8.5 reading %s → %s", old.Reading.Outcome, rep.Reading.Outcome))
	}
	if len(old.Failures) != len(rep.Failures) {
		parts = append(parts, fmt.Sprintf("failures %d → %d", len(old.Failures), len(rep.Failures)))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("rescore: differs from the run's recorded report (%s): %s; the archive is %s", old.RunID+".json", strings.Join(parts, "; "), rep.Integrity)
}
