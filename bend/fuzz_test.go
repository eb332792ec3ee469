package bend

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRoundTrip is §8.1.1 as a property: for any input that parses,
// parse(serialize(parse(d))) == parse(d), id included; no input panics.
// Parse, which reads through a pooled arena, must also equal
// FromValue(ParseValue(d)).
func FuzzRoundTrip(f *testing.F) {
	seeds := []string{
		`{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[]}`,
		`{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"b","kind":"paragraph","spans":[{"id":"s","text":"hi","marks":["bold",{"kind":"link","target":"bend:#b"}]}]}],"edges":[{"subject":"bend:x#b.s","predicate":"cites","object":"https://a"}]}`,
		`{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"l","kind":"list","ordered":true,"items":[{"id":"i","kind":"list-item","blocks":[]}]}],"edges":[],"meta":{"n":1e21}}`,
		`{"blocks":[{"kind":5}],"edges":{}}`,
		`[]`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/rich.bend.json"); err == nil {
		f.Add(b)
	}
	corpus, _ := filepath.Glob("../corpus/*.bend.json")
	for _, name := range corpus {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParseMatchesFromValue(t, data)
		d, err := Parse(data)
		if err != nil {
			return
		}
		Validate(d)
		checkRoundTrip(t, data)
	})
}
