//go:build !race

// The browser test drives Chromium, whose work the race detector cannot
// see; make test runs it in a go test of its own without -race (and says
// whether it ran), so the race run does not pay for it twice.

package viewer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/browsertest"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/suites"
)

// TestBrowser opens the viewer in headless Chromium, driven over the
// DevTools protocol: the matrix and a diff must render, the page's own
// script must work (sorting, opening a linked transcript), no console
// error may occur (a blocked inline script or style would log one), and
// model output holding <script>, onerror and onload markup must run
// nothing. The deadline only keeps a wedged browser from hanging the test
// run; nothing is timed.
func TestBrowser(t *testing.T) {
	t.Parallel()
	bin := browsertest.Find()
	if bin == "" {
		t.Skipf("no Chromium found (looked for %s in PATH): the HTML viewer was not tested in a browser. "+
			"Install it with `apt-get install -y chromium` (.ci/run does) to run this test.", strings.Join(browsertest.Browsers, ", "))
	}
	_, page := viewerRun(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, bin)
	checkViewer(t, ctx, bin, path)

	// Every plot of the main, size and relay pages explains itself and
	// stays readable at a desktop and a narrow width.
	shots := os.Getenv("REPORT_SCREENSHOTS")
	if shots == "" {
		var err error
		if shots, err = os.MkdirTemp("", "viewer-screenshots-"); err != nil {
			t.Fatal(err)
		}
	}
	pages := map[string]string{"main": path}
	for suite, run := range map[string]scoringtest.Run{suites.Size: scoringtest.SizeRun(), suites.Relay: scoringtest.RelayRun()} {
		in := inputOf(run)
		var buf bytes.Buffer
		if err := WriteHTML(&buf, aggregate.Build(in.Input), in); err != nil {
			t.Fatal(err)
		}
		pages[suite] = filepath.Join(t.TempDir(), suite+".html")
		if err := os.WriteFile(pages[suite], buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkPhone(t, ctx, path, shots)
	for _, name := range []string{"main", suites.Size, suites.Relay} {
		for _, width := range []int64{1280, PhoneWidth} {
			checkPlots(t, ctx, name, pages[name], width, shots)
		}
		browsertest.CheckFit(t, ctx, name, pages[name])
		browsertest.CheckPhoneScroll(t, ctx, name, pages[name], shots)
	}
	// REPORT_PAGES=a.html,b.html checks pages of real runs too (the
	// demo's formats and trend pages, say).
	for _, extra := range strings.Split(os.Getenv("REPORT_PAGES"), ",") {
		if extra != "" {
			browsertest.CheckFit(t, ctx, filepath.Base(extra), extra)
			browsertest.CheckPhoneScroll(t, ctx, filepath.Base(extra), extra, shots)
		}
	}
	t.Logf("screenshots of the plots: %s", shots)
}

// PhoneWidth is a phone's window (issue 46: at 390 px the threshold
// matrix showed only names, and plot text shrank to 5 or 6 px).
const PhoneWidth = browsertest.PhoneWidth

// minPlotText is the smallest plot text, in CSS pixels as drawn, that a
// page may show at any width.
const minPlotText = 9

// checkPhone opens a failing gating report in a phone's window and checks
// that the threshold matrix needs no sideways scroll: every threshold's
// status (✔ or ✘) and value for every model lie inside the window, the
// first threshold's in the first screen of the matrix, each beside the
// name of its model. It saves a screenshot of the matrix to dir.
func checkPhone(t *testing.T, ctx context.Context, path, dir string) {
	t.Helper()
	browsertest.Open(t, ctx, "the viewer", path, PhoneWidth, 844, "#matrix")
	problems := browsertest.Eval[string](t, ctx, `(() => {
		const out = [];
		const right = document.documentElement.clientWidth, screen = window.innerHeight;
		const m = document.querySelector("table.matrix");
		if (!m) return "no threshold matrix";
		if (![...m.querySelectorAll("td.bad")].length) out.push("the report fails no threshold");
		const wrap = m.closest(".scroll");
		if (wrap && wrap.scrollWidth > wrap.clientWidth + 1) out.push("the matrix scrolls sideways: " + wrap.scrollWidth + "px in " + wrap.clientWidth + "px");
		const top = m.getBoundingClientRect().top;
		const rows = [...m.querySelectorAll("tbody tr")].filter(tr => tr.querySelector("td.ok, td.bad"));
		rows.forEach((tr, i) => {
			const name = tr.querySelector("th").textContent;
			for (const td of tr.querySelectorAll("td")) {
				const b = td.getBoundingClientRect();
				const status = getComputedStyle(td, "::before").content;
				const v = td.querySelector(".v"), model = td.querySelector(".m");
				if (!/[✔✘]/.test(status)) out.push(name + ": a cell shows no status (" + status + ")");
				if (b.left < -0.5 || b.right > right + 0.5) out.push(name + ": a cell runs from " + Math.round(b.left) + " to " + Math.round(b.right) + "px in a " + right + "px window");
				if (!v || v.getBoundingClientRect().width === 0) out.push(name + ": a cell shows no value");
				if (!model || model.getBoundingClientRect().width === 0) out.push(name + ": a cell does not name its model");
				if (i === 0 && b.bottom - top > screen) out.push(name + ": the first threshold ends " + Math.round(b.bottom - top) + "px below the matrix's top, past the first screen");
			}
		});
		return out.join("\n");
	})()`)
	if problems != "" {
		t.Errorf("the viewer at %dpx:\n%s", PhoneWidth, problems)
	}
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#matrix")))
	if err != nil {
		t.Fatalf("screenshot of the matrix: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("main-matrix-%dpx.png", PhoneWidth)), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// plotSections are the page sections that hold plots, for the screenshots.
var plotSections = []string{"size", "relay", "plots"}

// checkPlots opens a page at a viewport width and checks every plot: two
// axis titles, a legend, and no two text labels (tick labels, line
// labels, axis titles, legend entries) whose boxes, as Chromium lays them
// out, overlap; and a footnote for every † the page uses. It saves a
// screenshot of each plot section to dir.
func checkPlots(t *testing.T, ctx context.Context, name, path string, width int64, dir string) {
	t.Helper()
	browsertest.Open(t, ctx, name, path, width, 900, "#transcripts")
	problems := browsertest.Eval[string](t, ctx, `(() => {
		const out = [];
		// Nothing outside a table's own scroll runs off the page (issue
		// 34: at 420 px the hashes did).
		const page = document.documentElement;
		if (page.scrollWidth > page.clientWidth + 1) out.push("the page is " + page.scrollWidth + "px wide in a " + page.clientWidth + "px window");
		const figs = [...document.querySelectorAll("main figure")];
		if (figs.length === 0) out.push("no plot");
		const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
		for (const f of figs) {
			const titles = [...f.querySelectorAll("svg text.axis-title")].filter(e => e.textContent.trim() !== "");
			if (titles.length < 2) out.push(f.id + ": " + titles.length + " axis titles");
			const legend = [...f.querySelectorAll("ul.legend li")];
			if (legend.length === 0) out.push(f.id + ": no legend");
			const svgEl = f.querySelector("svg"), svg = svgEl.getBoundingClientRect();
			// The plot is scaled to the page's width: its text is drawn at
			// its font size times that scale.
			const scale = svg.width / svgEl.viewBox.baseVal.width;
			for (const e of f.querySelectorAll("svg text")) {
				const px = parseFloat(getComputedStyle(e).fontSize) * scale;
				if (e.textContent.trim() !== "" && px < `+fmt.Sprint(minPlotText)+`) { out.push(f.id + ": " + JSON.stringify(e.textContent) + " is drawn at " + px.toFixed(1) + "px"); break; }
			}
			// A plot may scroll inside its frame (a phone's width), never
			// run off the page.
			const frame = svgEl.parentElement;
			const box = frame.scrollWidth > frame.clientWidth + 1 ? frame.getBoundingClientRect() : svg;
			if (box.right > document.documentElement.clientWidth + 0.5) out.push(f.id + ": wider than the page (" + Math.round(box.width) + "px)");
			const texts = [...f.querySelectorAll("svg text")].map(e => [e, e.getBoundingClientRect()]).filter(([e, b]) => b.width > 0);
			for (const [e, b] of texts) {
				if (b.left < svg.left - 0.5 || b.right > svg.right + 0.5 || b.top < svg.top - 0.5 || b.bottom > svg.bottom + 0.5) {
					out.push(f.id + ": " + JSON.stringify(e.textContent) + " is cut off by the plot's edge");
				}
			}
			const boxes = texts.concat(legend.map(e => [e, e.getBoundingClientRect()]));
			for (let i = 0; i < boxes.length; i++) {
				for (let j = i + 1; j < boxes.length; j++) {
					if (overlap(boxes[i][1], boxes[j][1])) {
						out.push(f.id + ": " + JSON.stringify(boxes[i][0].textContent) + " overlaps " + JSON.stringify(boxes[j][0].textContent));
					}
				}
			}
		}
		if ([...document.querySelectorAll("th")].some(th => th.textContent.includes("†")) &&
			![...document.querySelectorAll("p")].some(p => p.textContent.trim().startsWith("†"))) {
			out.push("a † without its footnote");
		}
		return out.join("\n");
	})()`)
	if problems != "" {
		t.Errorf("%s report at %dpx:\n%s", name, width, problems)
	}
	for _, sec := range plotSections {
		if !browsertest.Eval[bool](t, ctx, fmt.Sprintf(`document.getElementById(%q) !== null`, sec)) {
			continue
		}
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#"+sec)))
		if err != nil {
			t.Fatalf("screenshot of %s #%s: %v", name, sec, err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%s-%dpx.png", name, sec, width)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkViewer drives the main viewer page at path.
func checkViewer(t *testing.T, ctx context.Context, bin, path string) {
	t.Helper()

	// Collect console messages, exceptions and browser log entries (a
	// blocked script or style is logged there) while the steps run.
	consoleCtx, stopConsole := context.WithCancel(ctx)
	messages := chromedp.Console(consoleCtx)
	collected := make(chan []chromedp.ConsoleMessage)
	go func() {
		var got []chromedp.ConsoleMessage
		for m, err := range messages {
			if err != nil {
				break
			}
			got = append(got, m)
		}
		collected <- got
	}()

	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("driving %s: %v", bin, err)
		}
	}
	do(
		chromedp.Navigate("file://"+path),
		chromedp.WaitReady(chromedp.CSS("#transcript-table")),
	)
	// The models are across, the thresholds down (issue 34).
	if cols := browsertest.Eval[int](t, ctx, `document.querySelectorAll("table.matrix thead th").length`); cols != 4 {
		t.Errorf("the matrix has %d head cells, want 4: a corner and three models", cols)
	}
	if first := browsertest.Eval[string](t, ctx, `document.querySelector("table.matrix thead th:nth-child(2)").textContent`); first != "offline/oracle" {
		t.Errorf("the matrix's first model is %q, want offline/oracle", first)
	}
	if last := browsertest.Eval[string](t, ctx, `document.querySelector("table.matrix tbody tr:last-child th").textContent`); last != "complete" {
		t.Errorf("the matrix's last line is %q, want complete", last)
	}

	// Follow a link to a transcript with a diff: the page's script opens it.
	id := browsertest.Eval[string](t, ctx, `document.querySelector("details pre.diff").closest("details").id`)
	browsertest.Eval[string](t, ctx, fmt.Sprintf(`location.hash = %q`, "#"+id))
	do(chromedp.WaitVisible(chromedp.CSS("#" + id + " pre.diff")))
	if !browsertest.Eval[bool](t, ctx, fmt.Sprintf(`document.getElementById(%q).open`, id)) {
		t.Errorf("following a link to %s did not open it", id)
	}
	if h := browsertest.Eval[float64](t, ctx, fmt.Sprintf(`document.querySelector("#%s pre.diff").getBoundingClientRect().height`, id)); h <= 0 {
		t.Errorf("the diff of %s has height %v", id, h)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("pre.diff span.add").length`); n == 0 {
		t.Error("no diff shows an added line")
	}

	// Sort by drift, twice for descending: the first row holds the largest.
	drift := chromedp.CSS("#transcript-table thead th:nth-child(6)")
	do(chromedp.Click(drift), chromedp.Click(drift))
	if got := browsertest.Eval[string](t, ctx, `(() => {
		const vals = [...document.querySelectorAll("#transcript-table tbody tr td:nth-child(6)")]
			.map(td => td.textContent).filter(s => s !== "").map(Number);
		return vals[0] === Math.max(...vals) ? "ok" : "first " + vals[0] + ", max " + Math.max(...vals);
	})()`); got != "ok" {
		t.Errorf("sorting by drift: %s", got)
	}

	// Open every transcript so that any live markup would be parsed and run.
	browsertest.Eval[bool](t, ctx, `document.querySelectorAll("details").forEach(d => d.open = true); true`)
	if got := browsertest.Eval[string](t, ctx, `String(window.__pwned)`); got != "undefined" {
		t.Errorf("model output ran: window.__pwned = %s", got)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("img, iframe, object, embed").length`); n != 0 {
		t.Errorf("model output made %d live elements", n)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("script").length`); n != 1 {
		t.Errorf("%d script elements, want only the page's own", n)
	}
	if !browsertest.Eval[bool](t, ctx, `document.body.textContent.includes("<script>window.__pwned=1</script>")`) {
		t.Error("the model's markup is not shown as text")
	}

	stopConsole()
	for _, m := range <-collected {
		if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
			t.Errorf("browser console: %s", m)
		}
	}
}
