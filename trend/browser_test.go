//go:build !race

package trend

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/internal/browsertest"
)

// TestTrendPageOnAPhone: issue 56: on a 390 px phone the trend's Reports
// table was cut at the right edge with no hint, and its plots started at
// their left end, the newest night off-screen. The page has no script:
// every table fits or scrolls in its frame with a cue, and every plot
// opens at its right end (browsertest.CheckPhoneScroll).
func TestTrendPageOnAPhone(t *testing.T) {
	t.Parallel()
	bin := browsertest.Find()
	if bin == "" {
		t.Skip("no Chromium found: the trend page was not tested in a browser")
	}
	reps, names := trendNights(t)
	var page bytes.Buffer
	if err := Of(reps, names).WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "trend.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t, bin)
	browsertest.CheckPhoneScroll(t, ctx, "trend", path, os.Getenv("REPORT_SCREENSHOTS"))
	browsertest.CheckFit(t, ctx, "trend", path)
}
