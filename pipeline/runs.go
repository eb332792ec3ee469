package pipeline

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/transcript"
)

// RunRow is what harness runs shows of one run, each field as printed.
type RunRow struct {
	ID, Started, Suite, Models, Verdict, Reading, State, Cost string
	// API is where the run's online models were asked: "openrouter" for
	// OpenRouter's root, the root itself for any other (§8.6: only
	// OpenRouter gates), "-" for a run of offline models.
	API string
}

// ListRuns reads the runs in dir, a directory of run directories, sorted
// by start time and id. A subdirectory without a manifest is no run and
// is passed over; one whose manifest does not read is a warning, and the
// listing goes on.
func ListRuns(dir string) (rows []RunRow, warnings []error, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		runDir := filepath.Join(dir, e.Name())
		// A run's manifest is its own file: a symbolic link would list
		// another run's id, state and verdict under this directory
		// (issue 45).
		if st, err := os.Lstat(filepath.Join(runDir, transcript.ManifestName)); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			warnings = append(warnings, fmt.Errorf("%s: %s is a symbolic link, not a run's own manifest: not listed", runDir, transcript.ManifestName))
			continue
		}
		m, err := transcript.ReadManifest(runDir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			warnings = append(warnings, fmt.Errorf("%s: %w", runDir, err))
			continue
		}
		rows = append(rows, runRowOf(runDir, m))
	}
	slices.SortFunc(rows, func(a, b RunRow) int { return cmp.Or(cmp.Compare(a.Started, b.Started), cmp.Compare(a.ID, b.ID)) })
	return rows, warnings, nil
}

// runRowOf reads what harness runs shows of a run: its manifest, its
// report when there is one (the verdict and whether it is complete), and
// the cost every transcript reported (answers and judge votes, superseded
// attempts included: all were paid for).
func runRowOf(runDir string, m *transcript.Manifest) RunRow {
	r := RunRow{ID: m.RunID, Started: m.StartedAt.UTC().Format(time.RFC3339), Suite: suiteText(m.Inputs),
		Models: strings.Join(m.Models, ","), Verdict: "-", Reading: "-", State: "interrupted"}
	if m.FinishedAt != nil {
		r.State = "finished"
	}
	switch r.API = m.Inputs.BaseURL; strings.TrimSuffix(r.API, "/") {
	case "":
		r.API = "-"
	case model.DefaultBaseURL:
		r.API = "openrouter"
	}
	reportPath := filepath.Join(cmp.Or(m.Inputs.ReportDir, DefaultReportDir), m.RunID+".json")
	if f, err := regularfile.Open(reportPath, report.MaxFileSize); err == nil {
		rep, err := report.ReadHead(f, reportPath)
		f.Close()
		if err == nil {
			r.Verdict, r.State = rep.Verdict, "complete"
			if rep.Reading.Outcome != "" && !rep.Informational() {
				r.Reading = rep.Reading.Outcome
			}
			if slices.ContainsFunc(rep.Failures, func(f report.Failure) bool { return f.Metric == report.MetricIncomplete }) {
				r.State = "incomplete"
			}
		}
	}
	if release, held := shareRun(runDir); held {
		// A live run has no verdict yet: a report there is a rescore's,
		// written before the run ends, and "interrupted" would invite a
		// resume.
		r.Verdict, r.Reading, r.State = "-", "-", "running"
	} else {
		release()
	}
	if m.Inputs.Selection != nil {
		r.State += ", partial"
	}
	usd, unknown := runCost(runDir)
	r.Cost = fmt.Sprintf("$%.4f", usd)
	if unknown {
		r.Cost += "+?"
	}
	return r
}

// suiteText is a run's suite as harness runs shows it: its name and what
// the run asked of it beside the defaults, the rungs in size order, the
// chains' steps and the answer formats.
func suiteText(in transcript.Inputs) string {
	var asked []string
	if len(in.Rungs) > 0 {
		asked = append(asked, "rungs "+strings.Join(slices.SortedFunc(slices.Values(in.Rungs), suites.RungLess), ","))
	}
	if in.Steps > 0 {
		asked = append(asked, fmt.Sprintf("%d steps", in.Steps))
	}
	if formats.Several(in.Formats) {
		asked = append(asked, "formats "+strings.Join(in.Formats, ","))
	}
	name := suites.Of(in.Suite).Name
	if len(asked) == 0 {
		return name
	}
	return name + " (" + strings.Join(asked, "; ") + ")"
}

// runCost sums usage.cost over a run's transcript files, one file at a
// time; unknown is set when a response reported no cost. A superseded
// attempt (a failed call asked again) that reported no cost is not
// unknown: a later attempt replaced it, and a failed call is not charged
// unless it says so.
//
// The costs GET /generation gave later for attempts whose transcript knew
// none (ReconcileName, written by the run or by harness runs --reconcile)
// are added: transcripts are never rewritten, so that file is where an
// interrupted or silent stream's cost is kept (issue 42).
func runCost(runDir string) (usd float64, unknown bool) {
	if b, err := regularfile.Read(filepath.Join(runDir, ReconcileName), transcript.MaxSize); err == nil {
		var rec Reconciliation
		if json.Unmarshal(b, &rec) != nil || !(rec.USD >= 0 && rec.USD <= 1e6) {
			unknown = true // a reconciliation that cannot be read is a cost unknown, never 0
		} else {
			usd += rec.USD
		}
	}
	filepath.WalkDir(runDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == filepath.Join(runDir, transcript.ManifestName) || path == filepath.Join(runDir, ReconcileName) ||
			!strings.HasSuffix(path, ".json") && !strings.Contains(path, ".json.superseded-") {
			return nil
		}
		b, err := regularfile.Read(path, transcript.MaxSize)
		if err != nil {
			unknown = true // a file that cannot be read is a cost unknown, never 0
			return nil
		}
		var t struct {
			Response *struct {
				Usage struct {
					Cost *float64 `json:"cost"`
				} `json:"usage"`
			} `json:"response"`
		}
		if json.Unmarshal(b, &t) != nil || t.Response == nil {
			return nil
		}
		if c := t.Response.Usage.Cost; c != nil {
			usd += *c
		} else if !strings.Contains(path, ".json.superseded-") {
			unknown = true
		}
		return nil
	})
	return usd, unknown
}
