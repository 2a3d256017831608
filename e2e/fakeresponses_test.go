//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// FakeResponses is a fake OpenAI Responses API on 127.0.0.1, the wire the
// Codex CLI speaks (POST /v1/responses, streamed as server-sent events). It
// records every request and answers each with a reply from a script, as
// FakeAPI does for the Anthropic Messages API.
type FakeResponses struct {
	URL string // the base URL, ending in /v1, for Codex's base_url

	t      testing.TB
	script func(Recorded) Reply
	mu     sync.Mutex
	reqs   []Recorded
	calls  int
}

// newFakeResponses starts the server; script nil answers "OK." to all.
func newFakeResponses(t testing.TB, script func(Recorded) Reply) *FakeResponses {
	t.Helper()
	f := &FakeResponses{t: t, script: script}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fake responses: listen on loopback: %v", err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(f.serve)}}
	srv.Start()
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/v1"
	return f
}

// Turns returns the model requests (POST /v1/responses) so far, in order.
func (f *FakeResponses) Turns() []Recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Recorded
	for _, r := range f.reqs {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/responses") {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets the recorded requests.
func (f *FakeResponses) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = nil
}

// Summary lists the requests, one line each, for failure messages.
func (f *FakeResponses) Summary() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, r := range f.reqs {
		fmt.Fprintf(&b, "#%d %s %s input=%d last=%.200q\n", r.Seq, r.Method, r.Path,
			len(r.Get("input").Array()), responsesLastText(r))
	}
	return b.String()
}

func (f *FakeResponses) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	rec := Recorded{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery,
		Header: req.Header.Clone(), Body: body, When: time.Now()}
	var obj map[string]any
	if json.Unmarshal(body, &obj) == nil {
		rec.JSON = obj
	}
	f.mu.Lock()
	rec.Seq = len(f.reqs)
	f.reqs = append(f.reqs, rec)
	f.mu.Unlock()
	if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/responses") {
		// Model lists and other probes: a 404 keeps them from looking
		// like success; the request is still recorded.
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": "fake responses: no such endpoint " + req.URL.Path}})
		return
	}
	reply := Reply{}
	if f.script != nil {
		reply = f.script(rec)
	}
	if reply.isZero() {
		reply = TextReply("OK.")
	}
	f.stream(w, rec, reply)
}

// stream answers one turn as the Responses API streams it: created, each
// output item done, completed. A tool call is a function_call item, which
// Codex runs and sends back as a function_call_output in the next request.
func (f *FakeResponses) stream(w http.ResponseWriter, rec Recorded, reply Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	id := fmt.Sprintf("resp_fake_%d", rec.Seq)
	event := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	if reply.Text != "" {
		event(map[string]any{"type": "response.output_item.done", "item": map[string]any{
			"type": "message", "role": "assistant", "id": id + "_msg",
			"content": []any{map[string]any{"type": "output_text", "text": reply.Text}},
		}})
	}
	if tu := reply.ToolUse; tu != nil {
		f.mu.Lock()
		f.calls++
		callID := tu.ID
		if callID == "" {
			callID = fmt.Sprintf("call_fake_%d", f.calls)
		}
		f.mu.Unlock()
		args, _ := json.Marshal(tu.Input)
		item := map[string]any{"type": "function_call", "id": id + "_fc", "call_id": callID, "name": tu.Name, "arguments": string(args)}
		if tu.Namespace != "" {
			item["namespace"] = tu.Namespace
		}
		event(map[string]any{"type": "response.output_item.done", "item": item})
	}
	event(map[string]any{"type": "response.completed", "response": map[string]any{
		"id": id, "usage": map[string]any{"input_tokens": 100, "output_tokens": 10, "total_tokens": 110},
	}})
}

// responsesText is every text of a Responses request: its instructions
// and each input item's text, a function call's output included.
func responsesText(r Recorded) string {
	var parts []string
	parts = append(parts, r.Get("instructions").String())
	for _, item := range r.Get("input").Array() {
		parts = append(parts, responsesItemText(item))
	}
	return strings.Join(parts, "\n")
}

func responsesItemText(item gjson.Result) string {
	if out := item.Get("output"); out.Exists() {
		return out.String()
	}
	var parts []string
	for _, c := range item.Get("content").Array() {
		parts = append(parts, c.Get("text").String())
	}
	return strings.Join(parts, "\n")
}

// responsesLastText is the text of the request's last input item.
func responsesLastText(r Recorded) string {
	items := r.Get("input").Array()
	if len(items) == 0 {
		return ""
	}
	return responsesItemText(items[len(items)-1])
}

// responsesOutput returns the output Codex sent back for a call, if any.
func responsesOutput(r Recorded, callID string) (string, bool) {
	for _, item := range r.Get("input").Array() {
		if item.Get("type").String() == "function_call_output" && item.Get("call_id").String() == callID {
			return item.Get("output").String(), true
		}
	}
	return "", false
}
