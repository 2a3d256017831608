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
)

// FakeGemini is a fake Gemini API (generativelanguage) on 127.0.0.1, the
// wire the Gemini CLI speaks with an API key: POST
// /v1beta/models/<model>:generateContent, :streamGenerateContent
// (server-sent events with alt=sse) and :countTokens. It records every
// request and answers each model turn with a reply from a script.
type FakeGemini struct {
	URL string // the base URL, for GOOGLE_GEMINI_BASE_URL

	t      testing.TB
	script func(Recorded) Reply
	mu     sync.Mutex
	reqs   []Recorded
}

// newFakeGemini starts the server; script nil answers "OK." to all.
func newFakeGemini(t testing.TB, script func(Recorded) Reply) *FakeGemini {
	t.Helper()
	f := &FakeGemini{t: t, script: script}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fake gemini: listen on loopback: %v", err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(f.serve)}}
	srv.Start()
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// isGeminiTurn tells a model turn from the other requests.
func isGeminiTurn(r Recorded) bool {
	return r.Method == http.MethodPost &&
		(strings.HasSuffix(r.Path, ":generateContent") || strings.HasSuffix(r.Path, ":streamGenerateContent"))
}

// Turns returns the model requests so far, in order.
func (f *FakeGemini) Turns() []Recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Recorded
	for _, r := range f.reqs {
		if isGeminiTurn(r) {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets the recorded requests.
func (f *FakeGemini) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = nil
}

// Summary lists the requests, one line each, for failure messages.
func (f *FakeGemini) Summary() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, r := range f.reqs {
		fmt.Fprintf(&b, "#%d %s %s contents=%d last=%.200q\n", r.Seq, r.Method, r.Path,
			len(r.Get("contents").Array()), geminiText(r))
	}
	return b.String()
}

// geminiText is the text of every part of every content of a request.
func geminiText(r Recorded) string {
	var b strings.Builder
	for _, c := range r.Get("contents").Array() {
		for _, p := range c.Get("parts").Array() {
			b.WriteString(p.Get("text").Str)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (f *FakeGemini) serve(w http.ResponseWriter, req *http.Request) {
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
	switch {
	case req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, ":countTokens"):
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": len(body) / 4})
		return
	case !isGeminiTurn(rec):
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": 404, "message": "fake gemini: no such endpoint " + req.URL.Path, "status": "NOT_FOUND"}})
		return
	}
	reply := Reply{}
	if f.script != nil {
		reply = f.script(rec)
	}
	if reply.isZero() {
		reply = TextReply("OK.")
	}
	var parts []any
	if reply.Text != "" {
		parts = append(parts, map[string]any{"text": reply.Text})
	}
	if tu := reply.ToolUse; tu != nil {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": tu.Name, "args": tu.Input}})
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  "gemini-2.5-pro",
	}
	if strings.HasSuffix(req.URL.Path, ":generateContent") {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	b, _ := json.Marshal(resp)
	fmt.Fprintf(w, "data: %s\n\n", b)
}
