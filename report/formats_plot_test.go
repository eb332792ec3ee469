package report

import "testing"

// TestFormatPlotLegendDistinct: with the four answer formats, each series
// has its own mark (shape or colour), so the legend tells them apart.
func TestFormatPlotLegendDistinct(t *testing.T) {
	names := []string{"document", "json-patch", "bend-ops", "search-replace"}
	var ps []formatPoint
	for _, f := range names {
		ps = append(ps, formatPoint{format: f, bytes: 1000, drift: 0.1, tokens: 10})
	}
	c := formatPlot("m", "drift", ps, names, 1, 10, 1)
	seen := map[string]string{}
	for _, l := range c.Legend {
		k := l.Kind + " " + l.Class
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share the mark %s", other, l.Label, k)
		}
		seen[k] = l.Label
	}
}
