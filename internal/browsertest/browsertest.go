// Package browsertest drives headless Chromium for the tests of the
// harness's HTML pages (the report viewer, the trend page): it finds the
// browser, starts it for one test, and checks that a page fits a laptop's
// window. Tests that use it are tagged !race (the race detector cannot
// see the browser's work) and skip when no Chromium is found.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	Open(t, ctx, name, path, FitWidth, 900, "body")
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

// PhoneWidth is a phone's window.
const PhoneWidth = 390

// CheckPhoneScroll opens a page in a phone's window (PhoneWidth) and
// checks, for every table shown and every plot, that it fits the window
// or scrolls inside a frame of its own that fits it and says so (a
// table's frame with its "scrolls sideways" cue, a plot's caption), and
// that a plot's frame opens at the plot's right end: its rightmost mark
// or label (the newest night, the last document, the thresholds' labels)
// is in view (issue 56: the wide tables were cut at the right edge with
// no hint, and every plot started at its left end). It saves a
// screenshot of the first frame that scrolls to dir.
func CheckPhoneScroll(t testing.TB, ctx context.Context, name, path, dir string) {
	t.Helper()
	Open(t, ctx, name, path, PhoneWidth, 844, "body")
	problems := Eval[string](t, ctx, `(() => {
		const out = [];
		const right = document.documentElement.clientWidth;
		const tables = [...document.querySelectorAll("table")].filter(tb => tb.getBoundingClientRect().width > 0);
		for (const tb of tables) {
			const tname = tb.id || tb.className || "a table";
			const b = tb.getBoundingClientRect();
			if (b.right <= right + 0.5) continue;
			const frame = tb.closest(".scroll");
			if (!frame) { out.push(tname + ": cut at the window's right edge (" + Math.round(b.right) + "px in " + right + "px), in no frame that scrolls"); continue; }
			const fb = frame.getBoundingClientRect();
			if (fb.right > right + 0.5) out.push(tname + ": its frame runs off the window (" + Math.round(fb.right) + "px in " + right + "px)");
			if (frame.scrollWidth <= frame.clientWidth + 1 || getComputedStyle(frame).overflowX !== "auto") out.push(tname + ": cut, and its frame does not scroll");
			if (!decodeURIComponent(getComputedStyle(frame).backgroundImage).includes("scrolls sideways")) out.push(tname + ": scrolls without a cue that it does");
		}
		for (const f of document.querySelectorAll("figure.chart")) {
			const svg = f.querySelector("svg"), frame = svg.parentElement;
			const sb = svg.getBoundingClientRect(), fb = frame.getBoundingClientRect();
			if (sb.right <= right + 0.5 && sb.left >= -0.5) continue;
			if (fb.right > right + 0.5) out.push(f.id + ": its frame runs off the window");
			if (frame.scrollWidth <= frame.clientWidth + 1) out.push(f.id + ": cut, and its frame does not scroll");
			if (!getComputedStyle(f.querySelector("figcaption"), "::after").content.includes("scrolls sideways")) out.push(f.id + ": scrolls without a cue that it does");
			const items = [...svg.querySelectorAll(".mark, text.label, text.tick")].map(e => e.getBoundingClientRect()).filter(r => r.width > 0);
			const last = Math.max(...items.map(r => r.right));
			if (last > fb.right + 0.5) out.push(f.id + ": its rightmost point or label ends at " + Math.round(last) + "px, outside its frame (" + Math.round(fb.left) + "–" + Math.round(fb.right) + "px): the plot does not open at its right end");
		}
		return out.join("\n");
	})()`)
	if problems != "" {
		t.Errorf("%s at %dpx:\n%s", name, PhoneWidth, problems)
	}
	if dir == "" {
		return
	}
	// The first frame that scrolls, as a phone shows it.
	if !Eval[bool](t, ctx, `(() => {
		const f = [...document.querySelectorAll(".scroll")].find(f => f.scrollWidth > f.clientWidth + 1);
		if (f) f.setAttribute("data-shot", "");
		return !!f;
	})()`) {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("[data-shot]")))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-table-%dpx.png", filepath.Base(name), PhoneWidth)), png, 0o644); err != nil {
		t.Fatal(err)
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

// Open opens the page at path (called name in a failure) in a window of
// width × height px, once the element ready selects is there.
func Open(t testing.TB, ctx context.Context, name, path string, width, height int64, ready string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height), chromedp.Navigate("file://"+path),
		chromedp.WaitReady(chromedp.CSS(ready))); err != nil {
		t.Fatalf("%s at %dpx: %v", name, width, err)
	}
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
