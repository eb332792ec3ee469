package model

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestRawBodyAlwaysHashable: a body that is JSON but has no RFC 8785 form
// (a number beyond a double, a duplicate member name) is kept as a JSON
// string, like a body that is not JSON, so that its transcript can still be
// hashed; a canonicalizable body is kept as it is.
func TestRawBodyAlwaysHashable(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		body   string
		quoted bool
		reason string
	}{
		{`{"id":"x","choices":[]}`, false, "a body with an RFC 8785 form is kept as it is, so the transcript holds the provider's JSON"},
		{`{"usage":{"cost":1E400}}`, true, "a number beyond a double has no canonical form, so the body is kept as a string"},
		{`{"a":1,"a":2}`, true, "a duplicate member name has no canonical form, so the body is kept as a string"},
		{`<html>bad gateway</html>`, true, "a body that is not JSON (a proxy's error page) is kept as a string"},
	}) {
		got := rawBody([]byte(tc.body))
		if quoted := got[0] == '"'; quoted != tc.quoted {
			t.Errorf("rawBody(%s) = %s; quoted %v, want %v (%s)", tc.body, got, quoted, tc.quoted, tc.reason)
		}
	}
}
