package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestBadFramesAnsweredAndServingGoesOn: each malformed frame (not JSON,
// an empty batch, invalid UTF-8, another JSON-RPC version, an object as
// id, a 50 MB line) is answered with a JSON-RPC error and skipped; the
// same session then initialises and lists its tools (issue 34, item 15).
func TestBadFramesAnsweredAndServingGoesOn(t *testing.T) {
	bad := []struct {
		frame string
		code  int
		id    any
	}{
		{`{not json}`, codeParseError, nil},
		{`[]`, codeInvalidRequest, nil},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}", codeParseError, nil},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, codeInvalidRequest, "7"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, codeInvalidRequest, nil},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, codeInvalidRequest, nil},
		{`[1,2]`, codeInvalidRequest, nil},
		{`"just a string"`, codeInvalidRequest, nil},
		{`{"jsonrpc":"2.0","id":"x","method":"ping"}{"jsonrpc":"2.0"}`, codeParseError, nil},
		{`{"id":"abc","method":"ping"}`, codeInvalidRequest, "abc"},
		{`{"jsonrpc":"2.0","method":"ping","params":"` + strings.Repeat("x", 50<<20) + `"}`, codeParseError, nil},
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, Options{Dir: t.TempDir(), Version: "test"}, inR, outW)
		outW.Close()
	}()
	replies := bufio.NewReaderSize(outR, 1<<20)
	read := func() map[string]any {
		t.Helper()
		line, err := replies.ReadBytes('\n')
		if err != nil {
			t.Fatalf("the server stopped answering: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("not one JSON object: %q", line)
		}
		return m
	}
	send := func(frame string) {
		t.Helper()
		if _, err := io.WriteString(inW, frame+"\n"); err != nil {
			t.Fatalf("the server stopped reading: %v", err)
		}
	}
	for _, b := range bad {
		// A 50 MB line is read while it is written.
		sent := make(chan error, 1)
		go func() {
			_, err := io.WriteString(inW, b.frame+"\n")
			sent <- err
		}()
		m := read()
		if err := <-sent; err != nil {
			t.Fatalf("the server stopped reading: %v", err)
		}
		e, _ := m["error"].(map[string]any)
		code, _ := e["code"].(float64)
		if m["jsonrpc"] != "2.0" || int(code) != b.code {
			t.Errorf("%.60q: answered %v, want error code %d", b.frame, m, b.code)
		}
		if id := m["id"]; (b.id == nil && id != nil) || (b.id != nil && id != b.id && json.Number(b.id.(string)) != toNumber(id)) {
			t.Errorf("%.60q: answered id %v, want %v", b.frame, id, b.id)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := read(); m["result"] == nil {
		t.Fatalf("initialize after the bad frames: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{not json either}`)
	if m := read(); m["error"] == nil {
		t.Fatalf("a bad frame after initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	m := read()
	res, _ := m["result"].(map[string]any)
	if tools, _ := res["tools"].([]any); len(tools) == 0 {
		t.Fatalf("tools/list after the bad frames: %v", m)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Serve ended with %v once the client closed", err)
	}
}

// toNumber is a decoded number id as the json.Number it was sent as.
func toNumber(v any) json.Number {
	f, ok := v.(float64)
	if !ok {
		return ""
	}
	b, _ := json.Marshal(f)
	return json.Number(b)
}
