package render

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/verdict"
)

// The JUnit schema as CI test reporters read it (Jenkins' junit plugin,
// GitHub's test-report actions, GitLab): parsed back strictly by element
// and attribute name, so a misspelt one fails.
type junitDoc struct {
	XMLName  xml.Name      `xml:"testsuites"`
	Tests    *int          `xml:"tests,attr"`
	Failures *int          `xml:"failures,attr"`
	Errors   *int          `xml:"errors,attr"`
	Skipped  *int          `xml:"skipped,attr"`
	Suites   []parsedSuite `xml:"testsuite"`
}

// parsedSuite is one <testsuite> of a junitDoc.
type parsedSuite struct {
	Name     string `xml:"name,attr"`
	Tests    *int   `xml:"tests,attr"`
	Failures *int   `xml:"failures,attr"`
	Errors   *int   `xml:"errors,attr"`
	Skipped  *int   `xml:"skipped,attr"`
	Cases    []struct {
		Name      string `xml:"name,attr"`
		Classname string `xml:"classname,attr"`
		Failure   *struct {
			Message string `xml:"message,attr"`
			Type    string `xml:"type,attr"`
		} `xml:"failure"`
		Error   *struct{} `xml:"error"`
		Skipped *struct {
			Message string `xml:"message,attr"`
		} `xml:"skipped"`
	} `xml:"testcase"`
}

func parseJUnit(t *testing.T, b []byte) junitDoc {
	t.Helper()
	var d junitDoc
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatalf("the JUnit file does not parse: %v\n%s", err, b)
	}
	if d.Tests == nil || d.Failures == nil || d.Errors == nil || d.Skipped == nil {
		t.Fatal("<testsuites> lacks tests, failures, errors or skipped")
	}
	return d
}

// TestJUnitIdentityFailsAsTestCases: the demo's models in JUnit XML:
// offline/identity's failures of the verdict are failing threshold cases
// carrying the failure line (its harness gates marked), its answers that
// never edit are failing task cases, offline/oracle fails nothing, and
// every count attribute adds up.
func TestJUnitIdentityFailsAsTestCases(t *testing.T) {
	t.Parallel()
	run, _ := pipelinetest.Pipeline(t, []string{offline.Oracle, offline.Identity, offline.Noisy}, nil, 1, 20260427)
	in := inputOf(run)
	r := aggregate.Build(in)
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte(xml.Header)) {
		t.Error("the file does not start with the XML declaration")
	}
	d := parseJUnit(t, buf.Bytes())
	if len(d.Suites) != 4 || d.Suites[3].Name != "§8.5 reading" {
		t.Fatalf("%d test suites, want one per model (3) and the reading", len(d.Suites))
	}
	reading := d.Suites[3].Cases
	if len(reading) != 5 || reading[0].Skipped == nil || !strings.Contains(reading[0].Skipped.Message, "offline reference model") ||
		reading[2].Failure == nil || !strings.HasPrefix(reading[2].Name, "offline/identity: fails") || reading[4].Skipped == nil {
		t.Errorf("the reading's cases: %+v; want can-gate skipped (offline models), offline/identity's standing failed, the reading inconclusive (skipped)", reading)
	}
	messages := map[string]bool{}
	for _, f := range r.Failures {
		messages[f.Message] = true
	}
	tests, failures := 0, 0
	for _, s := range d.Suites {
		n, failing, taskFails := junitCases(t, s, messages)
		nf := len(failing) + len(taskFails)
		tests, failures = tests+n, failures+nf
		switch s.Name {
		case "offline/oracle · gating":
			if nf != 0 {
				t.Errorf("offline/oracle fails %d cases: %v %v", nf, failing, taskFails)
			}
		case "offline/identity · gating":
			want := 0
			for _, f := range r.Failures {
				if f.Model == offline.Identity {
					want++
				}
			}
			if len(failing) != want || want == 0 {
				t.Errorf("offline/identity: %d failing threshold cases, the verdict has %d failures: %v", len(failing), want, failing)
			}
			// It answers every class B and C task with the source and
			// every class A one with "unknown": all 60 fail.
			if len(taskFails) != 60 {
				t.Errorf("offline/identity: %d failing task cases, want 60", len(taskFails))
			}
		case "offline/noisy · gating", "§8.5 reading":
		default:
			t.Errorf("unexpected test suite %q", s.Name)
		}
	}
	if *d.Tests != tests || *d.Failures != failures {
		t.Errorf("<testsuites> says tests=%d failures=%d, the suites %d and %d", *d.Tests, *d.Failures, tests, failures)
	}
}

// junitCases counts a test suite's cases and lists its failing threshold
// cases (their messages) and failing task cases (their names), checking
// that each threshold failure is a line of the verdict (messages), typed
// harness exactly when it is the harness's own gate, and that the suite's
// counts are its cases'.
func junitCases(t *testing.T, s parsedSuite, messages map[string]bool) (n int, failing, taskFails []string) {
	t.Helper()
	for _, c := range s.Cases {
		n++
		switch {
		case c.Failure == nil:
		case strings.HasSuffix(c.Classname, ".thresholds"):
			failing = append(failing, c.Failure.Message)
			if !messages[c.Failure.Message] {
				t.Errorf("%s: the failure %q is not a line of the verdict", s.Name, c.Failure.Message)
			}
			if own := strings.Contains(c.Name, "(harness gate)"); own != (c.Failure.Type == verdict.SourceHarness) {
				t.Errorf("%s: %q has failure type %q", s.Name, c.Name, c.Failure.Type)
			}
		default:
			taskFails = append(taskFails, c.Name)
		}
	}
	if nf := len(failing) + len(taskFails); *s.Tests != n || *s.Failures != nf {
		t.Errorf("%s: tests=%d failures=%d, the cases say %d and %d", s.Name, *s.Tests, *s.Failures, n, nf)
	}
	return n, failing, taskFails
}

// TestJUnitInformationalSuiteStaysGreen: the answers of an informational
// suite that lose something are skipped with the reason, never failed, so
// a CI job that publishes the file stays green on information. The JUnit
// file is a function of the report, so the offline/noisy run's report
// relabelled as a size run is such a report.
func TestJUnitInformationalSuiteStaysGreen(t *testing.T) {
	t.Parallel()
	r := aggregate.Build(inputOf(pipelinetest.OracleNoisyRun(t)))
	r.Suite, r.Verdict = suites.Size, report.Complete
	r.Failures = nil // an informational suite fails only when incomplete, and the run is complete
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	d := parseJUnit(t, buf.Bytes())
	if *d.Failures != 0 || *d.Errors != 0 {
		t.Errorf("an informational run has %d failures and %d errors", *d.Failures, *d.Errors)
	}
	if *d.Skipped == 0 {
		t.Error("offline/noisy's lossy size answers are not shown as skipped")
	}
	for _, s := range d.Suites {
		for _, c := range s.Cases {
			if c.Skipped != nil && !strings.HasPrefix(c.Skipped.Message, "information") {
				t.Errorf("%s %s: skipped without saying why: %q", s.Name, c.Name, c.Skipped.Message)
			}
		}
	}
}
