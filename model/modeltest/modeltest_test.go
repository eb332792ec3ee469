package modeltest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
)

// post sends a minimal chat request and returns status, headers and body.
func post(t *testing.T, srv *modeltest.Server, model string) (int, http.Header, string) {
	t.Helper()
	body := `{"model":"` + model + `","messages":[{"role":"user","content":"hi"}],"temperature":0,"seed":1}`
	res, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

func TestScriptRepeatsLastReply(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.RateLimited(2), modeltest.Text("a"), modeltest.Text("b"))
	var got []string
	for range 4 {
		status, h, body := post(t, srv, "m")
		var c struct {
			Choices []struct {
				Message struct{ Content string }
			}
		}
		json.Unmarshal([]byte(body), &c)
		s := http.StatusText(status)
		if len(c.Choices) > 0 {
			s = c.Choices[0].Message.Content
		}
		if ra := h.Get("Retry-After"); ra != "" {
			s += " after " + ra
		}
		got = append(got, s)
	}
	want := []string{"Too Many Requests after 2", "a", "b", "b"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("replies = %q, want %q: the script is followed, then its last reply repeats", got, want)
	}
}

func TestCompletionBody(t *testing.T) {
	cost := 0.25
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: "x", Provider: "P", Usage: &modeltest.Usage{PromptTokens: 3, CompletionTokens: 4, CachedTokens: 1, ReasoningTokens: 2, Cost: &cost}})
	_, _, body := post(t, srv, "vendor/m")
	want := `{"id":"gen-1","object":"chat.completion","created":1700000000,"model":"vendor/m","provider":"P",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"x"},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7,"prompt_tokens_details":{"cached_tokens":1},` +
		`"completion_tokens_details":{"reasoning_tokens":2},"cost":0.25}}`
	if body != want {
		t.Errorf("body =\n%s\nwant\n%s", body, want)
	}
}

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		reply      modeltest.Reply
		wantStatus int
		wantBody   string
		reason     string
	}{
		{modeltest.StatusError(503), 503, `{"error":{"code":503,"message":"Service Unavailable"}}`, "OpenRouter's error shape"},
		{modeltest.Reply{Status: 502}, 502, `{"error":{"code":502,"message":"Bad Gateway"}}`, "a bare status still gets an error body"},
		{modeltest.NotJSON(), 200, `<html><body>502 Bad Gateway</body></html>`, "Body is sent verbatim"},
	}
	for _, tt := range tests {
		srv := modeltest.NewScripted(t, tt.reply)
		status, _, body := post(t, srv, "m")
		if status != tt.wantStatus || body != tt.wantBody {
			t.Errorf("got %d %s, want %d %s (%s)", status, body, tt.wantStatus, tt.wantBody, tt.reason)
		}
	}
}

func TestRecordsRequests(t *testing.T) {
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Text(req.Model)
	})
	for _, m := range []string{"a", "b", "a"} {
		post(t, srv, m)
	}
	reqs := srv.Requests()
	if srv.Count() != 3 || srv.CountModel("a") != 2 || srv.CountModel("b") != 1 {
		t.Errorf("counts = %d, a %d, b %d", srv.Count(), srv.CountModel("a"), srv.CountModel("b"))
	}
	if r := reqs[2]; r.Call != 3 || r.ModelCall != 2 || *r.Temperature != 0 || *r.Seed != 1 || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("third request = %+v", r)
	}
}
