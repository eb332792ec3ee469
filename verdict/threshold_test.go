package verdict

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestTable: the default configuration's thresholds are §8.5's five in
// the order of the §8.7 fields, each at the spec's limit, then the
// harness's own gates per class B then C; a gate configured to 0 (or
// absent) is no gate.
func TestTable(t *testing.T) {
	t.Parallel()
	var got []string
	for _, th := range Table(config.Default().Thresholds) {
		got = append(got, th.Heading())
	}
	want := []string{
		"class A faithfulness ≥ 90%", "class B median drift ≤ 0.05", "class B P95 drift ≤ 0.2", "class C median drift ≤ 0.1", "class C P95 drift ≤ 0.3",
		"class B edits applied ≥ 90% †", "class B P95 residual ≤ 0.1 †", "class B answers invalid ≤ 5% †", "class B answers without unrequested change ≥ 90% †",
		"class C edits applied ≥ 90% †", "class C P95 residual ≤ 0.1 †", "class C answers invalid ≤ 5% †", "class C answers without unrequested change ≥ 90% †",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the default table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	th := config.Default().Thresholds
	th.ClassBEditAppliedMin, th.ClassCUnchangedMin, th.ClassBResidualP95Max, th.ClassCInvalidMax = 0, 0, nil, nil
	var metrics []string
	for _, x := range Table(th)[5:] {
		metrics = append(metrics, x.Metric)
	}
	if want := "class_b_invalid class_b_unchanged class_c_edit_applied class_c_residual_p95"; strings.Join(metrics, " ") != want {
		t.Errorf("gates at 0 or absent: %s, want %s (a minimum of 0 and an absent maximum apply no gate)", strings.Join(metrics, " "), want)
	}
}

// TestThresholdRules: whether a value holds (at its limit it does; not
// measured it does not), whose threshold it is, and what a custom one
// says of its default.
func TestThresholdRules(t *testing.T) {
	t.Parallel()
	custom := median // 0.1, where §8.5 says 0.05
	ownCustom := applied
	ownCustom.Limit = 0.5
	unknown := Threshold{Metric: "class_d_median_drift", Op: "<=", Limit: 0.1}
	spec := Table(config.Default().Thresholds)[1]
	own := Table(config.Default().Thresholds)[5]
	for _, c := range tabletest.Cases(t, []struct {
		name          string
		t             Threshold
		v             *float64
		holds         bool
		source, deflt string
		reason        string
	}{
		{"spec at its limit", spec, ptr(0.05), true, "§8.5", "", "a value equal to its limit holds"},
		{"spec over", spec, ptr(0.0500001), false, "§8.5", "", "at most: a hair over fails"},
		{"not measured", spec, nil, false, "§8.5", "", "a value not measured does not hold"},
		{"own at its limit", own, ptr(0.9), true, SourceHarness, "", "at least: equal holds; the harness's own gate"},
		{"own under", own, ptr(0.8999), false, SourceHarness, "", "at least: a hair under fails"},
		{"custom spec", custom, ptr(0.07), true, SourceCustom, "§8.5 says ≤ 0.05", "a limit other than §8.5's is custom, never §8.5"},
		{"custom own", ownCustom, ptr(0.6), true, SourceCustom, "the harness's default is ≥ 0.9", "a harness gate at another limit is custom too"},
		{"no default", unknown, ptr(0.2), false, SourceCustom, "the harness has no default for it", "a metric the harness does not know has no default"},
	}) {
		if got := c.t.Holds(c.v); got != c.holds {
			t.Errorf("%s: holds %v, want %v (%s)", c.name, got, c.holds, c.reason)
		}
		if got := c.t.Source(); got != c.source {
			t.Errorf("%s: source %q, want %q (%s)", c.name, got, c.source, c.reason)
		}
		if got := CustomNote(c.t); c.deflt == "" && got != "" || c.deflt != "" && got != " (a custom threshold: "+c.deflt+")" {
			t.Errorf("%s: custom note %q, want the default %q (%s)", c.name, got, c.deflt, c.reason)
		}
	}
}

// TestHeadings: a threshold's heading writes a share's limit as a
// percentage, marks the harness's own (†) and a custom one; the table's
// heading says §8.5 only when every threshold is the spec's.
func TestHeadings(t *testing.T) {
	t.Parallel()
	if got, want := median.Heading(), "class B median drift ≤ 0.1 (custom)"; got != want {
		t.Errorf("heading %q, want %q", got, want)
	}
	if got, want := ThresholdsHeading(Table(config.Default().Thresholds)), "Thresholds (§8.5, and † the harness's own)"; got != want {
		t.Errorf("the default table's heading %q, want %q", got, want)
	}
	if got, want := ThresholdsHeading(append(Table(config.Default().Thresholds), median)), "Thresholds (custom: not §8.5)"; got != want {
		t.Errorf("a custom table's heading %q, want %q", got, want)
	}
	for _, th := range Table(config.Default().Thresholds) {
		if th.Share() != strings.Contains(th.Heading(), "%") {
			t.Errorf("%s: a share's limit prints as a percentage, and only a share's: %q", th.Metric, th.Heading())
		}
		if th.Count() != strings.Contains(th.Label, "P95") {
			t.Errorf("%s: a P95, and only a P95, is read as a count of documents over", th.Metric)
		}
	}
}
