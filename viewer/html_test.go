package viewer

import (
	"bytes"
	"html"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/task"
)

const evilModel = "test/evil"

var (
	viewerOnce sync.Once
	viewerIn   Input
	viewerHTML []byte
	viewerErr  error
)

// viewerRun is the offline pipeline with the oracle, the noisy model and a
// model whose outputs hold live markup, and its HTML report.
func viewerRun(t testing.TB) (Input, []byte) {
	t.Helper()
	viewerOnce.Do(func() {
		set, _ := task.Load(corpus.FS, instructions.FS)
		run, _ := pipelinetest.Pipeline(t, []string{offline.Oracle, offline.Noisy, evilModel}, map[string]model.Client{evilModel: pipelinetest.Evil{Set: set}}, 1, 20260427)
		in := inputOf(run)
		var buf bytes.Buffer
		viewerErr = WriteHTML(&buf, aggregate.Build(in.Input), in)
		viewerIn, viewerHTML = in, buf.Bytes()
		// REPORT_VIEWER_OUT=/tmp/viewer.html keeps the page to look at.
		if out := os.Getenv("REPORT_VIEWER_OUT"); out != "" && viewerErr == nil {
			viewerErr = os.WriteFile(out, viewerHTML, 0o644)
		}
	})
	if viewerErr != nil {
		t.Fatal(viewerErr)
	}
	return viewerIn, viewerHTML
}

// TestHTMLEscapesModelOutput: markup in model output reaches the page as
// text only.
func TestHTMLEscapesModelOutput(t *testing.T) {
	t.Parallel()
	_, page := viewerRun(t)
	s := string(page)
	for _, bad := range []string{"<script>window", "<img src=x", "<svg onload", "onerror='window"} {
		if strings.Contains(s, bad) {
			t.Errorf("the page holds live markup %q from a model output", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;window.__pwned=1&lt;/script&gt;", "&lt;img src=x onerror="} {
		if !strings.Contains(s, want) {
			t.Errorf("the page does not show the model's markup as text %q", want)
		}
	}
	if n := strings.Count(s, "<script"); n != 1 {
		t.Errorf("the page has %d script elements, want only its own", n)
	}
}

// TestHTMLSelfContained: the page loads nothing, and its policy allows
// exactly its own style and script.
func TestHTMLSelfContained(t *testing.T) {
	t.Parallel()
	_, page := viewerRun(t)
	s := string(page)
	for _, bad := range []*regexp.Regexp{
		// Inside tags (escaped text holds &lt;, never <): no loading
		// attribute, no inline style or handler, no external link.
		regexp.MustCompile(`<[a-zA-Z][^>]*\s(src|style|on[a-z]+|srcset|action)=`),
		regexp.MustCompile(`<[a-zA-Z][^>]*\shref="(https?:)?//`),
		regexp.MustCompile(`<(link|iframe|object|embed|img|base)\b`), regexp.MustCompile(`@import`),
	} {
		if loc := bad.FindStringIndex(s); loc != nil {
			t.Errorf("the page is not self-contained or not policy-clean: %q at %q", bad, s[max(0, loc[0]-40):min(len(s), loc[1]+40)])
		}
	}
	style := between(s, "<style>", "</style>")
	script := between(s, "<script>", "</script>")
	policy := contentPolicy()
	if !strings.Contains(policy, CSPHash(style)) || !strings.Contains(policy, CSPHash(script)) {
		t.Errorf("the inline style or script does not match the policy's hashes: the browser would block them")
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(s)
	if m == nil || html.UnescapeString(m[1]) != policy {
		t.Errorf("the page does not carry the policy %q", policy)
	}
}

func between(s, open, close string) string {
	i := strings.Index(s, open)
	j := strings.Index(s[i:], close)
	if i < 0 || j < 0 {
		return ""
	}
	return s[i+len(open) : i+j]
}

// TestHTMLContent: the page shows the verdict (neutral: offline models
// cannot gate v0.1), the reading, the matrix, the plots, the
// transcript table, the diffs and the judge votes.
func TestHTMLContent(t *testing.T) {
	t.Parallel()
	in, page := viewerRun(t)
	s := string(page)
	for _, want := range []string{
		`id="verdict" class="verdict neutral"`, `id="reading" class="reading"`, `<table class="matrix">`, `<svg`, `id="transcript-table"`,
		`<pre class="diff">`, `<span class="l add">`, `<span class="l del">`, `The produced document is identical`,
		`<table class="votes">`, `offline/judge`, `id="t-offline_noisy-01-b-r0"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	// The reading lists each model with its standing, and beneath it the
	// checks that are not clean, one item each (a run-on line per model
	// was hard to read).
	rd := between(s, `id="reading"`, `</div>`)
	for _, m := range in.Manifest.Models {
		if !strings.Contains(rd, "<li><strong>"+m+"</strong>: ") {
			t.Errorf("the reading has no item for %s:\n%s", m, rd)
		}
	}
	if n := strings.Count(rd, `<ul class="notes">`); n < 2 {
		t.Errorf("%d models of the reading list their notes beneath them; want noisy and the evil model at least:\n%s", n, rd)
	}
	if got := strings.Count(s, `<details id="t-`); got != len(in.Scores) {
		t.Errorf("%d transcript details, want one per score (%d)", got, len(in.Scores))
	}
	var again bytes.Buffer
	if err := WriteHTML(&again, aggregate.Build(in.Input), in); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), page) {
		t.Error("the same input gave a different page")
	}
}

// TestHTMLHasEveryMarkdownTable: the viewer is a superset of the
// Markdown: every table of the Markdown report (its header, column for
// column) is a table of the HTML page too, for the gating, size and relay
// suites. The threshold matrix is the one table the viewer turns (models
// across, thresholds down, to fit a 1280 px window): each of its Markdown
// columns is a row head there.
func TestHTMLHasEveryMarkdownTable(t *testing.T) {
	t.Parallel()
	viewer, _ := viewerRun(t)
	cases := []struct {
		name   string
		in     Input
		reason string
	}{
		{"gating, failing", inputOf(scoringtest.FailingRun.Run()), "a failing gating run (thresholds missed, transcripts missing, API errors) has the tables only failures bring, and each must reach the viewer"},
		{"gating, offline models", viewer, "the offline pipeline's own run, with a model whose outputs hold live markup, is the gating report users see"},
		{"size", inputOf(scoringtest.SizeRun()), "the size suite's report has tables the gating report has not, which the viewer must show too"},
		{"relay", inputOf(scoringtest.RelayRun()), "the relay suite's report has tables of its own (drift by step), which the viewer must show too"},
	}
	thRe := regexp.MustCompile(`(?s)<thead><tr>(.*?)</tr></thead>`)
	cellRe := regexp.MustCompile(`(?s)<th[^>]*>(.*?)</th>`)
	for _, tc := range tabletest.Cases(t, cases) {
		r := aggregate.Build(tc.in.Input)
		var md, page bytes.Buffer
		if err := render.WriteMarkdown(&md, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteHTML(&page, r, tc.in); err != nil {
			t.Fatal(err)
		}
		htmlHeads := map[string]bool{}
		for _, m := range thRe.FindAllStringSubmatch(page.String(), -1) {
			var cols []string
			for _, c := range cellRe.FindAllStringSubmatch(m[1], -1) {
				cols = append(cols, html.UnescapeString(c[1]))
			}
			htmlHeads[strings.Join(cols, " | ")] = true
		}
		lines := strings.Split(md.String(), "\n")
		for i := 0; i+1 < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "| ") || !strings.HasPrefix(lines[i+1], "|---") {
				continue
			}
			head := strings.TrimSuffix(strings.TrimPrefix(lines[i], "| "), " |")
			empty := i+2 >= len(lines) || !strings.HasPrefix(lines[i+2], "| ")
			if turned := strings.TrimPrefix(head, "model | "); turned != head && strings.HasPrefix(turned, "standing | ") {
				for _, col := range strings.Split(turned, " | ") {
					if !strings.Contains(page.String(), `<th scope="row">`+html.EscapeString(col)+`</th>`) {
						t.Errorf("%s: the matrix's column %q is not a row of the HTML's matrix (%s)", tc.name, col, tc.reason)
					}
				}
				continue
			}
			if !empty && !htmlHeads[head] {
				t.Errorf("%s: the Markdown table with columns %q is not in the HTML (%s)", tc.name, head, tc.reason)
			}
		}
	}
}

// TestUndecidedIsNotUnfaithful: a class A answer no judge decided (no
// valid vote) is not measured, as the report counts it
// (Judging.Undecided); the viewer printed it as faithful "no", which read
// as an unfaithful answer.
func TestUndecidedIsNotUnfaithful(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		judged, want string
		reason       string
	}{
		{report.JudgedFaithful, "yes", "the judges found it faithful"},
		{report.JudgedUnfaithful, "no", "the judges found it unfaithful"},
		{report.JudgedUndecided, "undecided", "no valid vote: not measured, never unfaithful"},
		{"", "", "no verdict at all (a class B answer)"},
	}) {
		var v transcriptView
		v.setNumbers(report.Answer{Model: "m", TaskID: "01-a", Class: "A", Judged: c.judged})
		if v.Faithful != c.want {
			t.Errorf("judged %q shows faithful %q; want %q (%s)", c.judged, v.Faithful, c.want, c.reason)
		}
	}
}
