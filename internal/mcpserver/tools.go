package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type rememberIn struct {
	Text       string   `json:"text,omitempty" jsonschema:"the entry: one line saying what happened and the outcome, stored exactly as given (a summary for replaces, the habit or rule for tier 3)"`
	Importance int      `json:"importance,omitempty" jsonschema:"1 transient, 2 minor, 3 notable (the default), 4 significant deliverable or key decision, 5 foundational"`
	Tags       []string `json:"tags,omitempty" jsonschema:"a few words the entry is about, e.g. [\"auth\", \"testing\"]"`
	Keywords   []string `json:"keywords,omitempty" jsonschema:"two or three words a later question would use that the text does not, e.g. [\"latency\", \"schedule\"]: recall searches them, the memory view never shows them (at most 5)"`
	Tier       int      `json:"tier,omitempty" jsonschema:"2 active context (the default), 1 core facts that never decay (importance 4-5 only), 3 a pattern: a habit or rule seen across the entries that carry its tags (no importance)"`
	Replaces   []string `json:"replaces,omitempty" jsonschema:"consolidation: the IDs of two or more entries that text sums up; they go to the archive, and the summary keeps their highest importance, all their tags and the newest date (give no importance or tier)"`
	Promote    string   `json:"promote,omitempty" jsonschema:"promotion: the ID of a Tier 2 entry of importance 4-5 to move to Tier 1, where it never decays (give nothing else)"`
	Supersedes []string `json:"supersedes,omitempty" jsonschema:"supersession: the IDs of older entries that text overrides (a choice reversed, a deadline moved); they go to the archive marked as superseded by the new entry, which takes their importance, tags and tier unless given"`
	BothHold   []string `json:"both_hold,omitempty" jsonschema:"the answer no to the supersession question: the new entry's ID, then the older ones that still hold beside it; the memory view stops marking them as possibly superseded (give nothing else)"`
}

// changed is what a change left in memory, or took out of it.
type changed struct {
	ID         string   `json:"id"`
	Tier       int      `json:"tier" jsonschema:"where it is now (or was, when forgotten): 1, 2 or 3 (a pattern)"`
	Importance int      `json:"importance,omitempty"`
	Date       string   `json:"date,omitempty"`
	Tags       []string `json:"tags"`
	Keywords   []string `json:"keywords,omitempty"`
	Text       string   `json:"text" jsonschema:"as stored"`
	New        bool     `json:"new" jsonschema:"a new entry or pattern; false when the same text was already recorded today and was updated instead, or for a promotion, a revival or a forget"`
	Archived   []string `json:"archived,omitempty" jsonschema:"IDs moved to the archive"`
	Archive    string   `json:"archive,omitempty" jsonschema:"the archive file they went to"`
	Memory     string   `json:"memory" jsonschema:"the memory file's path"`
}

// change carries out one change on the call's workspace: the CLI's words
// as the text, and what it left as the structured result.
func (s *server) change(ctx context.Context, do func(w *workspace.Opened) (record.Done, error)) (*mcp.CallToolResult, changed, error) {
	w, err := s.open(ctx)
	if err != nil {
		return nil, changed{}, err
	}
	d, err := do(w)
	if err != nil {
		return nil, changed{}, err
	}
	c := changed{Tier: d.Tier, New: d.IsNew, Memory: d.Memory, Tags: []string{}}
	switch {
	case d.Entry != nil:
		e := d.Entry
		c.ID, c.Importance, c.Date, c.Text = e.ID, e.Importance, e.Date.Format(time.DateOnly), e.Text
		c.Tags, c.Keywords = append(c.Tags, e.Tags...), e.Keywords
	case d.Pattern != nil:
		c.ID, c.Text, c.Tags = d.Pattern.ID, d.Pattern.Text, append(c.Tags, d.Pattern.Tags...)
	case len(d.Gone) == 1: // forgotten
		c.ID, c.Text = d.Gone[0].Item()
	}
	for _, g := range d.Gone {
		id, _ := g.Item()
		c.Archived, c.Archive = append(c.Archived, id), d.Archive
	}
	return text(d.Text()), c, nil
}

func (s *server) remember(ctx context.Context, req *mcp.CallToolRequest, in rememberIn) (*mcp.CallToolResult, changed, error) {
	r := record.Request{Text: in.Text, Importance: in.Importance, Tier: in.Tier,
		Tags: strings.Join(in.Tags, ","), Keywords: in.Keywords, Replaces: in.Replaces, Promote: in.Promote, Supersedes: in.Supersedes, BothHold: in.BothHold,
		Agent: clientAgent(req)}
	if _, err := record.Check(r, record.MCPNames); err != nil {
		return nil, changed{}, err
	}
	return s.change(ctx, func(w *workspace.Opened) (record.Done, error) {
		return record.Remember(w.Store, w.Today, w.Config.Memory, r, record.MCPNames)
	})
}

type recallIn struct {
	Query string `json:"query" jsonschema:"what to look for, in a few words (topics, names, tags or an entry ID)"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many items (default 10)"`
}

type recallOut struct {
	Items []inspect.Recalled `json:"items" jsonschema:"best first"`
}

const defaultRecall, maxRecall = 10, 50

func (s *server) recall(ctx context.Context, req *mcp.CallToolRequest, in recallIn) (*mcp.CallToolResult, recallOut, error) {
	query := strings.TrimSpace(in.Query)
	if query == "" {
		return nil, recallOut{}, fmt.Errorf("recall needs a query: a few words of what to look for")
	}
	limit := cmp.Or(in.Limit, defaultRecall)
	if limit < 1 || limit > maxRecall {
		return nil, recallOut{}, fmt.Errorf("\"limit\" %d is not from 1 to %d", in.Limit, maxRecall)
	}
	w, err := s.open(ctx)
	if err != nil {
		return nil, recallOut{}, err
	}
	items, err := w.Search(recall.Query{Text: query}, limit)
	if err != nil {
		return nil, recallOut{}, err
	}
	var b strings.Builder
	inspect.PrintRecalled(&b, items, query)
	return text(strings.TrimSuffix(b.String(), "\n")), recallOut{Items: items}, nil
}

type forgetIn struct {
	ID     string `json:"id" jsonschema:"the ID of the entry, pattern or unread note to move to the archive"`
	Reason string `json:"reason,omitempty" jsonschema:"why, kept in the archive"`
}

func (s *server) forget(ctx context.Context, _ *mcp.CallToolRequest, in forgetIn) (*mcp.CallToolResult, changed, error) {
	return s.change(ctx, func(w *workspace.Opened) (record.Done, error) {
		return record.Forget(w.Store, in.ID, in.Reason, record.MCPNames)
	})
}

type reviveIn struct {
	ID string `json:"id" jsonschema:"the ID of an archived entry (recall names them)"`
}

func (s *server) revive(ctx context.Context, _ *mcp.CallToolRequest, in reviveIn) (*mcp.CallToolResult, changed, error) {
	return s.change(ctx, func(w *workspace.Opened) (record.Done, error) {
		return record.Revive(w.Store, w.Today, w.Config.Memory, in.ID, record.MCPNames)
	})
}

type memoryIn struct{}

func (s *server) memory(ctx context.Context, req *mcp.CallToolRequest, _ memoryIn) (*mcp.CallToolResult, any, error) {
	w, err := s.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	// The SessionStart view, naming the tools.
	view, msg, err := hooks.MemoryView(hooks.Env{Store: w.Store, Config: w.Config.Memory, Settings: w.Config.Hooks, Today: w.Today,
		Binary: workspace.Binary(), ClaudeDir: workspace.ClaudeDir(), Tools: hooks.Tools{On: true},
		Global: workspace.ReadGlobal(w.Config, s.opt.Clock)}, s.session)
	if err != nil {
		return nil, nil, err
	}
	res := text(view)
	if msg != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: "For the user: " + msg})
	}
	return res, nil, nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// addTool registers h under t with In's schema (and bounds, which struct
// tags cannot say) and Out's (any: text alone). It decodes the arguments
// itself, not through the SDK's validation, so every bad argument is a
// tool error in the tool's own words and an unknown one is refused. A
// panic in h is a tool error too: one bad call must not end the server.
func addTool[In, Out any](s *server, srv *mcp.Server, t *mcp.Tool, bounds map[string][2]float64,
	h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error)) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(err) // the types are fixed, and a test lists every tool
	}
	for name, b := range bounds {
		p := in.Properties[name]
		p.Minimum, p.Maximum = ptr(b[0]), ptr(b[1])
	}
	t.InputSchema = singleTypes(in)
	if reflect.TypeFor[Out]() != reflect.TypeFor[any]() {
		out, err := jsonschema.For[Out](nil)
		if err != nil {
			panic(err)
		}
		t.OutputSchema = singleTypes(out)
	}
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = toolError(fmt.Errorf("bimri-hook: internal error: %v", r)), nil
			}
		}()
		if s.askRoots(req) {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsRequest: &mcp.ListRootsParams{}}}, nil
		}
		var args In
		if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&args); err != nil {
				return toolError(fmt.Errorf("%s: bad arguments: %s", t.Name, argumentError(err))), nil
			}
		}
		res, out, err := h(ctx, req, args)
		if err != nil {
			return toolError(fmt.Errorf("%s: %w", t.Name, err)), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if t.OutputSchema != nil {
			res.StructuredContent = out
		}
		return res, nil
	})
}

// singleTypes gives every list the one type "array", not the inferred
// ["null", "array"]: a list left out is never null, and clients with a
// one-type dialect (the Inspector's --strict) take it.
func singleTypes(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	if slices.Equal(s.Types, []string{"null", "array"}) {
		s.Type, s.Types = "array", nil
	}
	for _, p := range s.Properties {
		singleTypes(p)
	}
	singleTypes(s.Items)
	return s
}

// argumentError words a decoding error without Go's type names: the
// arguments are whole numbers, strings and lists of strings.
func argumentError(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	kind := map[reflect.Kind]string{reflect.Int: "a whole number", reflect.String: "a string", reflect.Slice: "a list of strings"}[te.Type.Kind()]
	return fmt.Sprintf("%q must be %s, not a JSON %s", te.Field, kind, te.Value)
}

func toolError(err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(err)
	return res
}

func ptr[T any](v T) *T { return &v }

func (s *server) addTools(srv *mcp.Server) {
	no := ptr(false)
	addTool(s, srv, &mcp.Tool{
		Name:  "memory",
		Title: "Read the memory",
		Description: "This workspace's memory as a session start gives it: the lasting facts and decisions, the latest work, patterns, and how to record. " +
			"Call it once at the start of a session, before other work, and read it. It also brings the memory's weights up to date once a day, and creates bimri.md in a new workspace.",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: no, OpenWorldHint: no},
	}, nil, s.memory)
	addTool(s, srv, &mcp.Tool{
		Name:  "remember",
		Title: "Record in memory",
		Description: "Record one memory entry when you finish a task, make a decision, or learn a preference or constraint: text (one line), importance 1-5, tags. " +
			"Importance by example: 5 \"This project is a CLI tool for generating invoice PDFs.\" (with tier 1); 4 \"Migrated database layer from SQLite to PostgreSQL.\"; 3 \"Added unit tests for the auth module, 94% coverage.\"; 2 \"Fixed a typo in the config loader.\"; 1 \"Ran lint pass, no issues.\" " +
			"When in doubt, record it: low-importance entries fade on their own. Never record secrets. " +
			"Other forms: supersedes (the IDs of older entries this text overrides: a choice reversed, a deadline moved; they go to the archive marked superseded), replaces (consolidate entries into one summary), promote (move a lasting decision to Tier 1), tier 3 with tags (write a pattern).",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: no, OpenWorldHint: no},
	}, map[string][2]float64{"importance": {1, 5}, "tier": {1, 3}}, s.remember)
	addTool(s, srv, &mcp.Tool{
		Name:  "recall",
		Title: "Search memory",
		Description: "Search this workspace's memory, bimri.md and its archive, for what bears on a question: ranked entries and patterns, each with its ID, date, importance, tags and where it lives (tier 1, 2, 3 or the archive). " +
			"Use it when the memory shown at session start does not answer, e.g. for older work or decisions.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: no},
	}, map[string][2]float64{"limit": {1, maxRecall}}, s.recall)
	addTool(s, srv, &mcp.Tool{
		Name:        "forget",
		Title:       "Forget an entry",
		Description: "Move an entry, pattern or unread note that is wrong or outdated to the archive, with the reason. The archive keeps it; revive brings an entry back.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: no, IdempotentHint: true, OpenWorldHint: no},
	}, nil, s.forget)
	addTool(s, srv, &mcp.Tool{
		Name:        "revive",
		Title:       "Revive an archived entry",
		Description: "Bring an archived entry (recall names them) back into active memory, Tier 2, dated today; the archive keeps its record.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: no, OpenWorldHint: no},
	}, nil, s.revive)
}
