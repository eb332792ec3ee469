package model

import "testing"

// TestRawBodyAlwaysHashable: a body that is JSON but has no RFC 8785 form
// (a number beyond a double, a duplicate member name) is kept as a JSON
// string, like a body that is not JSON, so that its transcript can still be
// hashed; a canonicalizable body is kept as it is.
func TestRawBodyAlwaysHashable(t *testing.T) {
	for _, tc := range []struct {
		body   string
		quoted bool
	}{
		{`{"id":"x","choices":[]}`, false},
		{`{"usage":{"cost":1E400}}`, true},
		{`{"a":1,"a":2}`, true},
		{`<html>bad gateway</html>`, true},
	} {
		got := rawBody([]byte(tc.body))
		if quoted := got[0] == '"'; quoted != tc.quoted {
			t.Errorf("rawBody(%s) = %s; quoted %v, want %v", tc.body, got, quoted, tc.quoted)
		}
	}
}
