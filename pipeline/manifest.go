package pipeline

import (
	"os"
	"strings"

	"bendscript.com/round-trip-harness/model"
	"path/filepath"
	"slices"
	"time"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/transcript"
)

// clock reads now, the caller's clock, in UTC; nil is time.Now. Every
// time a run or rescore records (its start, resumes, finish and
// rescored_at) is read here, so that one injected clock fixes them all.
func clock(now func() time.Time) time.Time {
	if now == nil {
		now = time.Now
	}
	return now().UTC()
}

// startManifest creates the run directory and its manifest, or records a
// resume in the existing one.
func startManifest(o Options, p *plan, det map[string]transcript.Determinism, pol map[string]transcript.ModelPolicy) (string, *transcript.Manifest, error) {
	now := clock(o.Now)
	if o.Resume != nil {
		if pol != nil {
			o.Resume.Policies = pol
		}
		return o.ResumeDir, o.Resume, resumeManifest(o.ResumeDir, o.Resume, det, now)
	}
	runDir, id, err := newRunDir(o, now)
	if err != nil {
		return "", nil, err
	}
	m := newManifest(o, p, det, id, now)
	m.Policies = pol
	return runDir, m, transcript.WriteManifest(runDir, m)
}

// resumeManifest records a resume in the run's manifest. The manifest on
// disk says the run is unfinished while it runs; m keeps its finish, which
// finish needs to tell a resume that asked nothing new.
func resumeManifest(runDir string, m *transcript.Manifest, det map[string]transcript.Determinism, now time.Time) error {
	m.ResumedAt = append(m.ResumedAt, now)
	m.Determinism = det
	finished := m.FinishedAt
	m.FinishedAt = nil
	err := transcript.WriteManifest(runDir, m)
	m.FinishedAt = finished
	return err
}

// newRunDir names a new run's directory: o.RunID, or a free default id,
// refusing an id that is no path element or a directory that exists.
func newRunDir(o Options, now time.Time) (runDir, id string, err error) {
	id = o.RunID
	switch {
	case id == "":
		id = freeRunID(o.OutDir, now)
	case !ValidRunID(id):
		return "", "", usage.Errorf("run id %q is not one path element of letters, digits, '.', '-' and '_'", id)
	}
	runDir = filepath.Join(o.OutDir, id)
	if _, err := os.Stat(runDir); err == nil {
		return "", "", usage.Errorf("run: %s exists; use --resume %s or another --run-id", runDir, runDir)
	}
	return runDir, id, nil
}

// newManifest is a new run's manifest: what it runs, the hashes of its
// inputs and where its requests go (the API root only when a model is
// online: an offline run sent nothing anywhere).
func newManifest(o Options, p *plan, det map[string]transcript.Determinism, id string, now time.Time) *transcript.Manifest {
	cfg := o.Config
	ids := make([]string, len(p.tasks))
	for i, t := range p.tasks {
		ids[i] = t.ID
	}
	dirs := map[string]string{}
	for _, mod := range append(slices.Clone(cfg.Models), p.judges...) {
		dirs[mod] = transcript.Slug(mod)
	}
	m := &transcript.Manifest{
		RunID: id, HarnessVersion: o.HarnessVersion, GitCommit: o.GitCommit,
		Models: cfg.Models, Judges: p.judges, ModelDirs: dirs, Repeats: cfg.Repeats, Seed: cfg.Request.Seed,
		TaskIDs: ids, CorpusHash: o.Set.Hash(), PromptHash: o.Prompts.HashFor(o.Inputs.Formats),
		ConfigHash: cfg.Hash(), Config: cfg.JSON(), Inputs: o.Inputs, Determinism: det, StartedAt: now,
	}
	m.Inputs.Order = o.Set.Order // the delegate suite's forward order, as drawn
	m.Inputs.BaseURL = o.Conn.recorded(p.online)
	if len(p.online) > 0 {
		m.Wire = &transcript.Wire{Headers: model.DefaultHeaders()}
		if !o.Inputs.NoPreflight {
			m.Wire.Session = model.SessionScheme
		}
	}
	return m
}

// finish records the run's end in its manifest. Resuming a finished run
// that asked nothing new (allReused) keeps the first finish, so its report
// stays byte-identical.
func finish(o Options, runDir string, m *transcript.Manifest, allReused bool) error {
	previous := m.FinishedAt
	fin := clock(o.Now)
	m.FinishedAt = &fin
	if previous != nil && allReused {
		m.FinishedAt = previous
	}
	if len(o.SealKey) > 0 {
		// Recorded before the seal is made, and covered by it: a run
		// whose seal.json is later deleted says so (CheckSeal).
		m.SealedAt = m.FinishedAt
	}
	return transcript.WriteManifest(runDir, m)
}

// determinism records, per model (answering and judging), which
// determinism controls its requests carry: from the listing for online
// models, both for the offline models (deterministic by construction),
// both unchecked when the preflight was skipped.
func determinism(p *plan, caps *capabilities, noPreflight bool) map[string]transcript.Determinism {
	out := map[string]transcript.Determinism{}
	for mod := range p.clients {
		d := transcript.Determinism{Source: transcript.DeterminismOffline, Honoured: []string{"temperature", "seed"}, Lacking: []string{}}
		if slices.Contains(p.online, mod) {
			d.Source = transcript.DeterminismListing
			if noPreflight {
				d.Source = transcript.DeterminismUnchecked
			}
			d.Honoured = []string{}
			d.Notes = determinismNotes(caps.policies[mod])
			for _, param := range []string{"temperature", "seed"} {
				if slices.Contains(caps.lacking[mod], param) {
					d.Lacking = append(d.Lacking, param)
				} else {
					d.Honoured = append(d.Honoured, param)
				}
			}
		}
		out[mod] = d
	}
	return out
}

// policies are the preflight's policies and listings per online model,
// for the manifest; nil without a preflight.
func policies(caps *capabilities) map[string]transcript.ModelPolicy {
	if len(caps.policies) == 0 {
		return nil
	}
	out := map[string]transcript.ModelPolicy{}
	for m, pol := range caps.policies {
		out[m] = transcript.ModelPolicy{Sent: pol, Listing: caps.listed[m]}
	}
	return out
}

// determinismNotes are a policy's reasons for the determinism controls it
// does not send as configured, other than a listing that lacks them (the
// report's default reason); nil when there are none.
func determinismNotes(pol model.Policy) map[string]string {
	out := map[string]string{}
	for param, note := range map[string]string{"temperature": pol.TemperatureNote, "seed": pol.SeedNote} {
		if note != "" && !strings.Contains(note, "supported_parameters lacks it") {
			out[param] = note
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
