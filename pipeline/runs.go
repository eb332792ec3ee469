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
	"bendscript.com/round-trip-harness/verdict"
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
			if slices.ContainsFunc(rep.Failures, func(f verdict.Failure) bool { return f.Metric == verdict.MetricIncomplete }) {
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
	if r.State == "interrupted" && refused(runDir) {
		r.State = "refused"
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

// refused reports whether every request of a run that stopped without a
// report failed for a reason the next would meet again (a refused
// connection or key, no credit, an unknown model: the run's DownError),
// its other jobs not requested: no transcript answered, and one at least
// failed fatally. Issue 56: such a run was listed as "interrupted", which
// invites a resume before the cause is fixed.
func refused(runDir string) bool {
	fatal, answered := false, false
	filepath.WalkDir(runDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Dir(path) == runDir || !strings.HasSuffix(path, ".json") {
			return nil
		}
		b, err := regularfile.Read(path, transcript.MaxSize)
		if err != nil {
			return nil
		}
		var t struct {
			Response json.RawMessage `json:"response"`
			Error    *struct {
				Fatal bool `json:"fatal"`
			} `json:"error"`
		}
		if json.Unmarshal(b, &t) != nil {
			return nil
		}
		switch {
		case t.Error == nil && len(t.Response) > 0 && string(t.Response) != "null":
			answered = true
			return fs.SkipAll
		case t.Error != nil && t.Error.Fatal:
			fatal = true
		}
		return nil
	})
	return fatal && !answered
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

// runCost is the run's known cost and whether some of it is unknown, as
// NightCost counts them.
func runCost(runDir string) (usd float64, unknown bool) {
	c := NightCost(runDir)
	return c.USD, c.Unknown > 0
}
