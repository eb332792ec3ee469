package model

import "testing"

// TestDotenv: the .env lines people write (export, quotes, comments,
// spaces around =) give the value without its decoration; a line without
// = is not an assignment.
func TestDotenv(t *testing.T) {
	got := dotenv("# comment\nexport A='x y'\n B = \"z\" \nC=unquoted'\nnot a line\nD=\n")
	want := map[string]string{"A": "x y", "B": "z", "C": "unquoted'", "D": ""}
	if len(got) != len(want) {
		t.Errorf("dotenv = %q, want %q", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q (dotenv = %q)", k, got[k], v, got)
		}
	}
}
