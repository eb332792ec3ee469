package report

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browsers are the Chromium binaries the browser test looks for, in order.
var browsers = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

func findBrowser() string {
	for _, name := range browsers {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowser opens the viewer in headless Chromium, driven over the
// DevTools protocol: the matrix and a diff must render, the page's own
// script must work (sorting, opening a linked transcript), no console
// error may occur (a blocked inline script or style would log one), and
// model output holding <script>, onerror and onload markup must run
// nothing. The deadline only keeps a wedged browser from hanging the test
// run; nothing is timed.
func TestBrowser(t *testing.T) {
	bin := findBrowser()
	if bin == "" {
		t.Skipf("no Chromium found (looked for %s in PATH): the HTML viewer was not tested in a browser. "+
			"Install it with `apt-get install -y chromium` (.ci/run does) to run this test.", strings.Join(browsers, ", "))
	}
	_, page := viewerRun(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	// The first Run starts the browser, which lives as long as its context:
	// that context has no deadline; the steps after it do.
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	ctx, cancel := context.WithTimeout(browser, 2*time.Minute)
	defer cancel()

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
	if rows := eval[int](t, ctx, `document.querySelectorAll("table.matrix tbody tr").length`); rows != 3 {
		t.Errorf("the matrix has %d rows, want 3", rows)
	}
	if first := eval[string](t, ctx, `document.querySelector("table.matrix tbody tr th").textContent`); first != "offline/oracle" {
		t.Errorf("the matrix's first model is %q, want offline/oracle", first)
	}

	// Follow a link to a transcript with a diff: the page's script opens it.
	id := eval[string](t, ctx, `document.querySelector("details pre.diff").closest("details").id`)
	eval[string](t, ctx, fmt.Sprintf(`location.hash = %q`, "#"+id))
	do(chromedp.WaitVisible(chromedp.CSS("#" + id + " pre.diff")))
	if !eval[bool](t, ctx, fmt.Sprintf(`document.getElementById(%q).open`, id)) {
		t.Errorf("following a link to %s did not open it", id)
	}
	if h := eval[float64](t, ctx, fmt.Sprintf(`document.querySelector("#%s pre.diff").getBoundingClientRect().height`, id)); h <= 0 {
		t.Errorf("the diff of %s has height %v", id, h)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("pre.diff span.add").length`); n == 0 {
		t.Error("no diff shows an added line")
	}

	// Sort by drift, twice for descending: the first row holds the largest.
	drift := chromedp.CSS("#transcript-table thead th:nth-child(6)")
	do(chromedp.Click(drift), chromedp.Click(drift))
	if got := eval[string](t, ctx, `(() => {
		const vals = [...document.querySelectorAll("#transcript-table tbody tr td:nth-child(6)")]
			.map(td => td.textContent).filter(s => s !== "").map(Number);
		return vals[0] === Math.max(...vals) ? "ok" : "first " + vals[0] + ", max " + Math.max(...vals);
	})()`); got != "ok" {
		t.Errorf("sorting by drift: %s", got)
	}

	// Open every transcript so that any live markup would be parsed and run.
	eval[bool](t, ctx, `document.querySelectorAll("details").forEach(d => d.open = true); true`)
	if got := eval[string](t, ctx, `String(window.__pwned)`); got != "undefined" {
		t.Errorf("model output ran: window.__pwned = %s", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("img, iframe, object, embed").length`); n != 0 {
		t.Errorf("model output made %d live elements", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("script").length`); n != 1 {
		t.Errorf("%d script elements, want only the page's own", n)
	}
	if !eval[bool](t, ctx, `document.body.textContent.includes("<script>window.__pwned=1</script>")`) {
		t.Error("the model's markup is not shown as text")
	}

	stopConsole()
	for _, m := range <-collected {
		if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
			t.Errorf("browser console: %s", m)
		}
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}
