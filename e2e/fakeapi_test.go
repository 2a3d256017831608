package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Recorded is one HTTP request the client sent to the fake API.
type Recorded struct {
	Seq    int // 0-based position among all requests to this server
	Method string
	Path   string // URL path without the query, e.g. /v1/messages
	Query  string // raw query, e.g. beta=true
	Header http.Header
	Body   []byte
	// JSON is Body decoded into generic values; nil when Body is not a JSON
	// object.
	JSON map[string]any
	// When is the time the request arrived; scenarios use it to tell
	// whether two sessions overlapped.
	When time.Time
}

// IsMessages reports whether r is a Messages API call (POST /v1/messages),
// as opposed to count_tokens or anything else the client probes.
func (r Recorded) IsMessages() bool {
	return r.Method == http.MethodPost && r.Path == "/v1/messages"
}

// IsMain reports whether r is a turn of the main conversation, the request
// a scenario script scripts. Claude Code sends its tool list only with the
// main conversation and with the compaction request (2.1.328 reuses the
// main request's tools there, presumably to share the prompt cache), so a
// main request is one that has tools and is not a compaction. Title and
// other side requests carry no tools.
func (r Recorded) IsMain() bool {
	return r.IsMessages() && len(r.Get("tools").Array()) > 0 && !r.IsCompaction()
}

// compactionMarkers are phrases of the instructions Claude Code appends to
// the conversation when it asks the model for a compaction summary.
var compactionMarkers = []string{
	"create a detailed summary of the conversation",
	"Respond with TEXT ONLY",
}

// IsCompaction reports whether r is the summary request that /compact (or
// auto-compaction) sends: the conversation so far plus, after the last
// assistant turn, instructions to answer with an <analysis> and a <summary>
// block. A PreCompact hook's stdout is in those instructions too, under
// "Additional Instructions:". The instructions are not always the last
// message: on a resumed session the client puts the SessionStart (resume)
// hook's context after them (measured), so all of NewText is searched.
func (r Recorded) IsCompaction() bool {
	if !r.IsMessages() {
		return false
	}
	fresh := r.NewText()
	for _, m := range compactionMarkers {
		if strings.Contains(fresh, m) {
			return true
		}
	}
	return false
}

// Stream reports whether the client asked for Server-Sent Events.
func (r Recorded) Stream() bool { return r.Get("stream").Bool() }

// Get evaluates a gjson path against the request body, e.g.
// r.Get("messages.#").Int() or r.Get("system.0.text").String().
func (r Recorded) Get(path string) gjson.Result { return gjson.GetBytes(r.Body, path) }

// Block is one content block of a request message, flattened for matching.
type Block struct {
	Type string // text, tool_use, tool_result, image, thinking, ...
	// Text is the block's text; for a tool_result it is the result's
	// content flattened to text, for a tool_use the raw input JSON.
	Text      string
	ID        string          // tool_use id
	Name      string          // tool_use name
	Input     json.RawMessage // tool_use input
	ToolUseID string          // tool_result tool_use_id
	IsError   bool            // tool_result is_error
}

// Message is one entry of the request's messages array. Claude Code sends
// roles user and assistant, and also system for its environment reminders.
type Message struct {
	Role   string
	Blocks []Block
}

// Text joins the text of all blocks of m.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// Messages decodes the request's messages array. Content given as a plain
// string becomes a single text block.
func (r Recorded) Messages() []Message {
	var out []Message
	for _, m := range r.Get("messages").Array() {
		out = append(out, Message{Role: m.Get("role").String(), Blocks: blocksOf(m.Get("content"))})
	}
	return out
}

// blocksOf turns a content value (a string or an array of blocks) into
// Blocks.
func blocksOf(content gjson.Result) []Block {
	if content.Type == gjson.String {
		return []Block{{Type: "text", Text: content.String()}}
	}
	var out []Block
	for _, c := range content.Array() {
		b := Block{Type: c.Get("type").String()}
		switch b.Type {
		case "text":
			b.Text = c.Get("text").String()
		case "tool_use":
			b.ID = c.Get("id").String()
			b.Name = c.Get("name").String()
			b.Input = json.RawMessage(c.Get("input").Raw)
			b.Text = c.Get("input").Raw
		case "tool_result":
			b.ToolUseID = c.Get("tool_use_id").String()
			b.IsError = c.Get("is_error").Bool()
			var parts []string
			for _, inner := range blocksOf(c.Get("content")) {
				parts = append(parts, inner.Text)
			}
			b.Text = strings.Join(parts, "\n")
		default:
			b.Text = c.Get("text").String()
		}
		out = append(out, b)
	}
	return out
}

// System returns the system prompt as text (it may be sent as a string or
// as an array of text blocks).
func (r Recorded) System() string {
	var parts []string
	for _, b := range blocksOf(r.Get("system")) {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// Text returns everything the model would read in r: the system prompt and
// the text of every message block, tool results included. Scripts search it
// for markers a hook injected.
func (r Recorded) Text() string {
	parts := []string{r.System()}
	for _, m := range r.Messages() {
		parts = append(parts, m.Text())
	}
	return strings.Join(parts, "\n")
}

// Contains reports whether s occurs anywhere in Text.
func (r Recorded) Contains(s string) bool { return strings.Contains(r.Text(), s) }

// ConversationText is Text without the system prompt: what the user, the
// hooks and the tools said. Searching it avoids false matches in Claude
// Code's long built-in instructions.
func (r Recorded) ConversationText() string {
	var parts []string
	for _, m := range r.Messages() {
		parts = append(parts, m.Text())
	}
	return strings.Join(parts, "\n")
}

// NewMessages returns the messages after the last assistant message: what
// arrived since the model last spoke (the user's prompt, tool results, hook
// feedback, system reminders). It is what the model is answering.
func (r Recorded) NewMessages() []Message {
	msgs := r.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "assistant" {
			return msgs[i+1:]
		}
	}
	return msgs
}

// NewText joins the text of NewMessages.
func (r Recorded) NewText() string {
	var parts []string
	for _, m := range r.NewMessages() {
		parts = append(parts, m.Text())
	}
	return strings.Join(parts, "\n")
}

// ToolResults returns every tool_result block in the request, oldest first.
func (r Recorded) ToolResults() []Block {
	var out []Block
	for _, m := range r.Messages() {
		for _, b := range m.Blocks {
			if b.Type == "tool_result" {
				out = append(out, b)
			}
		}
	}
	return out
}

// ToolResult returns the tool_result answering the tool_use with id, if the
// request holds one.
func (r Recorded) ToolResult(id string) (Block, bool) {
	for _, b := range r.ToolResults() {
		if b.ToolUseID == id {
			return b, true
		}
	}
	return Block{}, false
}

// ToolUse is a tool call the fake model makes.
type ToolUse struct {
	// ID is the tool_use id; the server makes one up (toolu_<n>) when empty.
	ID   string
	Name string // e.g. Bash, Write
	// Namespace is the Responses API's namespace of the tool (Codex
	// gives an MCP server's tools the namespace mcp__<server>); the
	// Messages API has none.
	Namespace string
	Input     any // marshalled to JSON; json.RawMessage passes through
}

// Reply is what the fake model answers to one request: text, a tool call,
// or both (text first, as a real model does). The zero Reply means "use
// DefaultReply".
type Reply struct {
	Text    string
	ToolUse *ToolUse
	// Status, when non-zero, makes the server answer with this HTTP status
	// and an Anthropic error body instead of a message.
	Status int
}

func (rp Reply) isZero() bool { return rp.Text == "" && rp.ToolUse == nil && rp.Status == 0 }

// TextReply answers with a single text block and stop_reason end_turn.
func TextReply(text string) Reply { return Reply{Text: text} }

// ToolReply answers with a tool_use block and stop_reason tool_use.
func ToolReply(name string, input any) Reply {
	return Reply{ToolUse: &ToolUse{Name: name, Input: input}}
}

// DefaultSummary is the compaction summary DefaultReply gives. The client
// insists on the <analysis> and <summary> blocks its instructions ask for:
// without them it retries the request (measured: a plain-text answer made
// /compact take 15 s instead of 3 s).
const DefaultSummary = "<analysis>Test conversation.</analysis>\n<summary>The user and the assistant exchanged a few test messages.</summary>"

// DefaultReply is the answer for requests a script does not care about: a
// compaction request gets DefaultSummary, any other side request (such as
// a title) a short title, and a main request a plain "OK." that ends the
// turn.
func DefaultReply(r Recorded) Reply {
	switch {
	case r.IsCompaction():
		return TextReply(DefaultSummary)
	case !r.IsMain():
		return TextReply("Test session")
	default:
		return TextReply("OK.")
	}
}

// Script decides the fake model's reply to one request. It runs on the
// server's goroutine: it may call t.Errorf but not t.Fatalf. Returning the
// zero Reply falls back to DefaultReply.
type Script func(req Recorded) Reply

// FakeAPI is a fake Anthropic Messages API on 127.0.0.1 that records every
// request and answers /v1/messages with replies from a Script.
type FakeAPI struct {
	// URL is the base URL to give the client as ANTHROPIC_BASE_URL.
	URL string

	t      testing.TB
	srv    *httptest.Server
	script Script

	mu    sync.Mutex
	reqs  []Recorded
	toolN int
}

// newFakeAPI starts a fake API that answers with script (nil means
// DefaultReply for everything) and stops it when the test ends.
func newFakeAPI(t testing.TB, script Script) *FakeAPI {
	t.Helper()
	f := &FakeAPI{t: t, script: script}
	// Listen on 127.0.0.1 explicitly: httptest would too, but the workplace
	// rule is loopback only, and saying so keeps it true if httptest changes.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fake api: listen on loopback: %v", err)
	}
	f.srv = &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(f.serve)}}
	f.srv.Start()
	f.URL = f.srv.URL
	t.Cleanup(f.srv.Close)
	if dir := os.Getenv("BIMRI_E2E_DUMP"); dir != "" {
		// Debugging aid: keep every request body to read after the test.
		t.Cleanup(func() { f.dump(t, filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_"))) })
	}
	return f
}

// dump writes each recorded request to dir as <seq>.json.
func (f *FakeAPI) dump(t testing.TB, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("fake api: dump: %v", err)
		return
	}
	for _, r := range f.Requests() {
		name := filepath.Join(dir, fmt.Sprintf("%03d%s.json", r.Seq, strings.ReplaceAll(r.Path, "/", "_")))
		if err := os.WriteFile(name, r.Body, 0o644); err != nil {
			t.Logf("fake api: dump: %v", err)
		}
	}
	t.Logf("fake api: %d requests dumped to %s", len(f.Requests()), dir)
}

// Requests returns a copy of every request received so far, in arrival
// order.
func (f *FakeAPI) Requests() []Recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Recorded(nil), f.reqs...)
}

// MessagesRequests returns the /v1/messages requests received so far.
func (f *FakeAPI) MessagesRequests() []Recorded {
	var out []Recorded
	for _, r := range f.Requests() {
		if r.IsMessages() {
			out = append(out, r)
		}
	}
	return out
}

// MainRequests returns the main-conversation requests received so far.
func (f *FakeAPI) MainRequests() []Recorded {
	var out []Recorded
	for _, r := range f.Requests() {
		if r.IsMain() {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets the recorded requests, so a test can look at one run of the
// client at a time.
func (f *FakeAPI) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = nil
}

// Summary lists the requests received so far, one line each, for failure
// messages.
func (f *FakeAPI) Summary() string {
	var b strings.Builder
	for _, r := range f.Requests() {
		fmt.Fprintf(&b, "#%d %s %s?%s main=%v compaction=%v stream=%v messages=%d new=%.160q\n",
			r.Seq, r.Method, r.Path, r.Query, r.IsMain(), r.IsCompaction(), r.Stream(), len(r.Messages()), r.NewText())
	}
	return b.String()
}

func (f *FakeAPI) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	rec := Recorded{
		Method: req.Method,
		Path:   req.URL.Path,
		Query:  req.URL.RawQuery,
		Header: req.Header.Clone(),
		Body:   body,
		When:   time.Now(),
	}
	var obj map[string]any
	if json.Unmarshal(body, &obj) == nil {
		rec.JSON = obj
	}
	f.mu.Lock()
	rec.Seq = len(f.reqs)
	f.reqs = append(f.reqs, rec)
	f.mu.Unlock()

	switch {
	case req.Method == http.MethodPost && req.URL.Path == "/v1/messages/count_tokens":
		// Any plausible number will do; the client uses it only to decide
		// when to compact, and we want it never to decide that on its own.
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 100})
	case rec.IsMessages():
		f.answer(w, rec)
	default:
		// Nothing else is needed to run a session (measured: with
		// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 the client calls only
		// /v1/messages); a 404 keeps any other probe from looking like
		// success, and the request is still recorded for the test to see.
		writeError(w, http.StatusNotFound, "not_found_error", "fake api: no such endpoint "+req.URL.Path)
	}
}

func (f *FakeAPI) answer(w http.ResponseWriter, rec Recorded) {
	if rec.JSON == nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "fake api: body is not a JSON object")
		return
	}
	reply, err := f.runScript(rec)
	if err != nil {
		// 400, not 500: the client retries 5xx with backoff, which would turn
		// a broken script into a slow timeout instead of a quick failure.
		f.t.Errorf("fake api: script failed on request #%d: %v", rec.Seq, err)
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	if reply.Status != 0 {
		writeError(w, reply.Status, "api_error", "fake api: scripted error")
		return
	}
	content, stop, err := f.content(reply)
	if err != nil {
		f.t.Errorf("fake api: request #%d: %v", rec.Seq, err)
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	model := rec.Get("model").String()
	if model == "" {
		model = "claude-fake"
	}
	id := fmt.Sprintf("msg_fake_%d", rec.Seq)
	if rec.Stream() {
		writeSSE(w, id, model, content, stop)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 10},
	})
}

// runScript calls the script, turning a panic into an error so one broken
// scenario fails its test instead of killing the server goroutine.
func (f *FakeAPI) runScript(rec Recorded) (reply Reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("script panicked: %v", p)
		}
	}()
	if f.script != nil {
		reply = f.script(rec)
	}
	if reply.isZero() {
		reply = DefaultReply(rec)
	}
	return reply, nil
}

// content turns a Reply into Messages API content blocks and a stop reason.
func (f *FakeAPI) content(reply Reply) ([]map[string]any, string, error) {
	var blocks []map[string]any
	if reply.Text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": reply.Text})
	}
	if reply.ToolUse == nil {
		return blocks, "end_turn", nil
	}
	tu := *reply.ToolUse
	if tu.ID == "" {
		f.mu.Lock()
		f.toolN++
		tu.ID = fmt.Sprintf("toolu_fake_%d", f.toolN)
		f.mu.Unlock()
	}
	input, err := json.Marshal(tu.Input)
	if err != nil {
		return nil, "", fmt.Errorf("marshal tool input: %w", err)
	}
	if tu.Input == nil {
		input = []byte("{}")
	}
	blocks = append(blocks, map[string]any{"type": "tool_use", "id": tu.ID, "name": tu.Name, "input": json.RawMessage(input)})
	return blocks, "tool_use", nil
}

// writeSSE streams a message the way the real API does: message_start, then
// per block start/delta/stop, then message_delta with the stop reason and
// message_stop. Tool input goes out as input_json_delta in two chunks, so
// the client's partial-JSON assembly is exercised as in production.
func writeSSE(w http.ResponseWriter, id, model string, content []map[string]any, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1},
	}})
	for i, b := range content {
		switch b["type"] {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			raw := string(b["input"].(json.RawMessage))
			half := len(raw) / 2
			for half > 0 && !utf8.RuneStart(raw[half]) {
				half-- // never split a character between two chunks
			}
			for _, part := range []string{raw[:half], raw[half:]} {
				event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}
