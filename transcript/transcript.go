// Package transcript reads what bimri-hook needs from a Claude Code
// session transcript (JSON lines, appended while the session runs)
// incrementally: each read summarises a bounded stretch and says where
// the next starts. Lines not JSON or too long are passed over.
package transcript

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/bimri/bimri-hook/privacy"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/tidwall/gjson"
)

const (
	maxLineSize = 4 << 20 // the longest line parsed
	// maxDepth is the deepest nesting parsed: real lines nest about a
	// dozen deep, and gjson's validation of a megabyte of '[' takes seconds.
	maxDepth          = 128
	maxPromptRunes    = 2000 // the most of a prompt FirstPrompt keeps
	maxIntentRunes    = 2000 // the most of an Intent's text: far more than an entry needs
	maxErrorRunes     = 200  // the most of RememberError
	maxIntents        = 16   // the most Intents and Denied
	maxPendingChanges = 64   // the most PendingChanges
)

// Summary is what bimri-hook needs to know about a stretch of a transcript.
type Summary struct {
	// FirstPrompt is the first real prompt that does not ask for one of
	// bimri-hook's own commands, through privacy.Clean.
	FirstPrompt string
	// Prompts counts real prompts: not tool results, command wrappers,
	// compaction summaries, hook feedback, meta or subagent lines.
	Prompts int
	// FilesChanged are the paths of the file-changing calls that
	// succeeded, once each.
	FilesChanged   []string
	PendingChanges []Change // file-changing calls whose result is to come
	// Remember calls (Bash or MCP): succeeded, failed, refused by the
	// client's permissions, and the last error's first line.
	RememberCalls  int
	RememberFailed int
	RememberDenied bool
	RememberError  string
	// Pending are the tool_use ids of remember calls whose result is to
	// come (a read can end between the two); the next read settles them.
	Pending []string
	// Intents are the entries the pending calls ask for; Denied those of
	// calls the client denied, which SessionEnd records as meant.
	Intents []Intent
	Denied  []Intent
	// What came after the last remember call (all, when none).
	ChangesSinceRemember int
	PromptsSinceRemember int
	Offset               int64 // after the last complete line read
	Skipped              bool  // the stretch was over the limit, its start unread
}

// Change is a file-changing tool call whose result is to come.
type Change struct {
	ID             string // its tool_use id
	Path           string
	BeforeRemember bool // a remember call came after it
}

// ReadMore reads the transcript at path from where s ended, at most the
// last limit bytes (none if limit <= 0) from the first whole line in them,
// and returns s with that stretch added. From past the end (a replaced
// transcript) it reads from 0.
func (s Summary) ReadMore(path string, limit int64) (Summary, error) {
	f, info, err := safefile.Open(path)
	if err != nil {
		return s, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	size, from := info.Size(), s.Offset
	if from < 0 || from > size {
		from = 0
	}
	start, skipped := from, limit > 0 && size-from > limit
	if skipped {
		// From the byte before the stretch: the line it ends is passed over.
		start, limit = size-limit-1, limit+1
	}
	sum, err := read(io.NewSectionReader(f, start, math.MaxInt64-start), start, limit, skipped, s)
	sum.Skipped = s.Skipped || skipped
	if sum.Offset == start && skipped {
		sum.Offset = from // no line ended in what was read: the next read tries again
	}
	return sum, err
}

// read adds to prev the complete lines of r (at offset start, at most
// limit bytes); when partial, the first line is cut and passed over. A
// last line without a newline may still be being written, so Offset stays
// before it. On an error the Summary covers the lines read before it.
func read(r io.Reader, start, limit int64, partial bool, prev Summary) (Summary, error) {
	if limit > 0 {
		r = io.LimitReader(r, limit)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		err = fmt.Errorf("read transcript: %w", err)
	}
	sum := prev // sharing no array with it
	sum.FilesChanged, sum.Pending = slices.Clone(prev.FilesChanged), slices.Clone(prev.Pending)
	sum.PendingChanges, sum.Intents, sum.Denied = slices.Clone(prev.PendingChanges), slices.Clone(prev.Intents), slices.Clone(prev.Denied)
	sum.Offset = start
	for line := range bytes.Lines(data) {
		switch {
		case line[len(line)-1] != '\n':
			return sum, err
		case partial:
			partial = false
		case len(line) <= maxLineSize:
			sum.addLine(line)
		}
		sum.Offset += int64(len(line))
	}
	return sum, err
}

func (s *Summary) addLine(line []byte) {
	if line = bytes.TrimSpace(line); len(line) == 0 || line[0] != '{' || tooDeep(line) || !gjson.ValidBytes(line) {
		return // not a JSON object, or too deep
	}
	// The members, the first of each name as gjson.Get finds it, in one
	// pass: a Get for each would read megabytes of tool output each time.
	var typ, isMeta, isCompactSummary, isSidechain, message gjson.Result
	members := map[string]*gjson.Result{"type": &typ, "isMeta": &isMeta, "isCompactSummary": &isCompactSummary, "isSidechain": &isSidechain, "message": &message}
	gjson.ParseBytes(line).ForEach(func(key, value gjson.Result) bool {
		if member := members[key.Str]; member != nil && !member.Exists() {
			*member = value
		}
		return true
	})
	content := message.Get("content")
	switch {
	case typ.String() == "assistant":
		s.addAssistant(content)
	case typ.String() == "user" && !isSidechain.Bool():
		if len(s.Pending)+len(s.PendingChanges) > 0 && content.IsArray() {
			s.settle(content)
		}
		text, ok := promptText(content)
		if !ok || isMeta.Bool() || isCompactSummary.Bool() {
			return
		}
		s.Prompts++
		s.PromptsSinceRemember++
		// A prompt asking for one of bimri-hook's other commands is not the
		// session's work. Clean before cutting, which could hide a secret's shape.
		if s.FirstPrompt == "" && !(strings.Contains(strings.ToLower(text), "bimri-hook") && productCommand().MatchString(text)) {
			s.FirstPrompt = shorten(privacy.Clean(text), maxPromptRunes)
		}
	}
}

// tooDeep reports whether line nests more than maxDepth deep.
func tooDeep(line []byte) bool {
	depth, inString := 0, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if depth++; depth > maxDepth {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// notPrompts begin user messages that Claude Code writes itself.
var notPrompts = []string{
	"<local-command-", "<command-name>", "<command-message>", "<command-args>", // a /command, its output
	"<bash-input>", "<bash-stdout>", "<bash-stderr>", // a ! shell command, its output
	"<system-reminder>",       // context added by the client
	"[Request interrupted by", // the user pressed Esc
	"Stop hook feedback:",     // a Stop hook blocked
	"This session is being continued from a previous conversation", // compaction summary
	"Caveat: The messages below were generated by the user while running local commands",
}

// promptText returns the text of a user message's content and whether
// it is a real prompt (images alone are one, without text).
func promptText(content gjson.Result) (string, bool) {
	text, media := content.Str, false
	if content.IsArray() {
		var texts []string
		for _, block := range content.Array() {
			switch block.Get("type").String() {
			case "tool_result":
				return "", false
			case "text":
				if t := strings.TrimSpace(block.Get("text").String()); t != "" && !strings.HasPrefix(t, "<system-reminder>") {
					texts = append(texts, t)
				}
			case "image", "document":
				media = true
			}
		}
		text = strings.Join(texts, "\n")
	} else if content.Type != gjson.String {
		return "", false
	}
	text = strings.TrimSpace(text)
	if text == "" && !media || slices.ContainsFunc(notPrompts, func(p string) bool { return strings.HasPrefix(text, p) }) {
		return "", false
	}
	return strings.ToValidUTF8(text, "\uFFFD"), true
}

func (s *Summary) addAssistant(content gjson.Result) {
	content.ForEach(func(_, block gjson.Result) bool {
		if block.Get("type").String() != "tool_use" {
			return true
		}
		id, name, input := block.Get("id").String(), block.Get("name").String(), block.Get("input")
		var in Intent
		var ok bool
		switch {
		case name == "Write" || name == "Edit" || name == "MultiEdit" || name == "NotebookEdit":
			path := cmp.Or(input.Get("file_path").String(), input.Get("notebook_path").String())
			s.PendingChanges = push(s.PendingChanges, Change{ID: id, Path: strings.ToValidUTF8(path, "\uFFFD")}, maxPendingChanges)
			return true
		case name == "Bash" && isRemember(input.Get("command").String()):
			in, ok = intentOfCommand(input.Get("command").String())
		case isRememberTool(name):
			in, ok = intentOfTool(input)
		default:
			return true
		}
		s.Pending = append(s.Pending, id)
		s.ChangesSinceRemember, s.PromptsSinceRemember = 0, 0
		for i := range s.PendingChanges {
			s.PendingChanges[i].BeforeRemember = true
		}
		if ok {
			in.ID = id
			s.Intents = push(s.Intents, in, maxIntents)
		}
		return true
	})
}

// isRememberTool says whether a tool is bimri-hook's MCP remember tool
// (mcp__plugin_bimri-hook_bimri__remember, or a server named with "bimri").
func isRememberTool(name string) bool {
	server, ok := strings.CutSuffix(name, "__remember")
	return ok && strings.HasPrefix(server, "mcp__") && strings.Contains(server, "bimri")
}

// push appends v to list, dropping the oldest past most: a result that
// never comes must not grow the saved state.
func push[T any](list []T, v T, most int) []T {
	if len(list) == most {
		list = slices.Delete(list, 0, 1)
	}
	return append(list, v)
}

// take removes from *list the first element whose ID is id, leaving nil
// for an empty list, as a summary that never had one.
func take[T any](list *[]T, id func(T) string, want string) (v T, ok bool) {
	i := slices.IndexFunc(*list, func(x T) bool { return id(x) == want })
	if i < 0 {
		return v, false
	}
	v = (*list)[i]
	if *list = slices.Delete(*list, i, i+1); len(*list) == 0 {
		*list = nil
	}
	return v, true
}

// settle counts the results of pending calls in a user message's content.
func (s *Summary) settle(content gjson.Result) {
	for _, block := range content.Array() {
		if block.Get("type").String() != "tool_result" {
			continue
		}
		id, failed := block.Get("tool_use_id").String(), block.Get("is_error").Bool()
		if c, ok := take(&s.PendingChanges, func(c Change) string { return c.ID }, id); ok {
			if !failed {
				if !c.BeforeRemember {
					s.ChangesSinceRemember++
				}
				if c.Path != "" && !slices.Contains(s.FilesChanged, c.Path) {
					s.FilesChanged = append(s.FilesChanged, c.Path)
				}
			}
			continue
		}
		i := slices.Index(s.Pending, id)
		if i < 0 {
			continue
		}
		s.Pending = slices.Delete(s.Pending, i, i+1)
		intent, hasIntent := take(&s.Intents, func(in Intent) string { return in.ID }, id)
		intent.ID = ""
		if !failed {
			s.RememberCalls++
			continue
		}
		s.RememberFailed++
		text := strings.TrimSpace(resultText(block.Get("content")))
		if lower := strings.ToLower(text); slices.ContainsFunc(denialMarks, func(m string) bool { return strings.Contains(lower, m) }) {
			s.RememberDenied = true
			if hasIntent && len(s.Denied) < maxIntents {
				s.Denied = append(s.Denied, intent)
			}
		}
		line, _, _ := strings.Cut(text, "\n")
		s.RememberError = shorten(oneLine(privacy.Clean(line)), maxErrorRunes)
	}
}

func resultText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	var texts []string
	content.ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").String() == "text" {
			texts = append(texts, b.Get("text").String())
		}
		return true
	})
	return strings.Join(texts, "\n")
}

// denialMarks are phrases of Claude Code's results for a call it did not
// run for want of permission.
var denialMarks = []string{"requires approval", "permission", "denied", "rejected", "doesn't want to proceed"}

// rememberCommand matches a shell command that runs bimri-hook (or
// bimri-hook-0.1.0, or bimri) with the word remember after it; "cat
// bimri.md" is not it.
var rememberCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)(?:^|[^\w.-])bimri(?:-hook)?(?:-v?\d[\w.+-]*)?(?:\.exe)?(?:[^\w.-].*)?\bremember\b`)
})

// productCommand matches text naming one of bimri-hook's commands other
// than remember.
var productCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\w.-])bimri-hook(?:-v?\d[\w.+-]*)?(?:\.exe)?["'\x60]?\s+` +
		`(?:install|uninstall|doctor|show|forget|why|forecast|maintain|search|restore|revive|version|` +
		`off|on|simulate|hook|mcp|browse|merge-driver|help)\b`)
})

func isRemember(command string) bool {
	return strings.Contains(command, "bimri") && strings.Contains(command, "remember") &&
		rememberCommand().MatchString(command)
}
