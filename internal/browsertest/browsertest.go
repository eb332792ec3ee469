// Package browsertest drives headless Chromium for the tests of the
// harness's HTML pages (the report viewer, the trend page): it finds the
// browser, starts it for one test, and checks that a page fits a laptop's
// window. Tests that use it are tagged !race (the race detector cannot
// see the browser's work) and skip when no Chromium is found.
package browsertest

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Browsers are the Chromium binaries the browser test looks for, in order.
var Browsers = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the path of the first Chromium binary on PATH, or "".
func Find() string {
	for _, name := range Browsers {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// FitWidth is the window the tables must fit: a laptop's (issue 34: the
// threshold matrix ran off a 1280 px window, its last gate and the
// complete column unseen).
const FitWidth = 1280

// CheckFit opens a page in a 1280 px window and checks that every table
// ends inside the window (the threshold matrix's right edge included),
// and that no cell of a table's first column (a model, a task id, a
// rung) wraps over more than two lines.
func CheckFit(t testing.TB, ctx context.Context, name, path string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(FitWidth, 900), chromedp.Navigate("file://"+path),
		chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatalf("%s at %dpx: %v", name, FitWidth, err)
	}
	problems := Eval[string](t, ctx, `(() => {
		const out = [];
		const right = document.documentElement.clientWidth;
		const tables = [...document.querySelectorAll("table")].filter(tb => !tb.closest("details"));
		if (document.querySelector("#matrix") && !document.querySelector("table.matrix")) out.push("no threshold matrix");
		for (const tb of tables) {
			const name = tb.id || tb.className || "a table";
			const b = tb.getBoundingClientRect();
			if (b.right > right + 0.5) out.push(name + ": its right edge at " + Math.round(b.right) + "px is outside the " + right + "px window (columns: " + [...tb.querySelectorAll("thead th")].map(th => th.textContent + " " + Math.round(th.getBoundingClientRect().width) + "px").join(", ") + ")");
			for (const row of tb.querySelectorAll("tbody tr")) {
				const cell = row.firstElementChild;
				// The distinct tops of the text's line boxes are its lines.
				const inner = document.createRange(); inner.selectNodeContents(cell);
				const rects = [...inner.getClientRects()].map(r => Math.round(r.top));
				const wrapped = new Set(rects).size;
				if (wrapped > 2) { out.push(name + ": " + JSON.stringify(cell.textContent) + " wraps over " + wrapped + " lines"); break; }
			}
		}
		return out.join("\n");
	})()`)
	if problems != "" {
		t.Errorf("%s report at %dpx:\n%s", name, FitWidth, problems)
	}
}

// Start starts headless Chromium (bin, from Find) for the test; it stops
// when the test ends.
func Start(t testing.TB, bin string) context.Context {
	t.Helper()
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
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	// The first Run starts the browser, which lives as long as its context:
	// that context has no deadline; the steps after it do.
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	ctx, cancel := context.WithTimeout(browser, 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// Eval evaluates a JavaScript expression in the page.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}
