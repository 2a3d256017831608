// Package transcript reads what bimri-hook needs from a Claude Code session
// transcript.
//
// Claude Code appends one JSON object per line to the transcript file
// (transcript_path in hook input) while a session runs. Hooks have
// milliseconds to work, so the transcript is read incrementally: each read
// summarises a stretch of lines and reports the byte offset where the next
// read should start, and reads are bounded so that a huge transcript costs
// no more than a small one. Lines still being written, lines that are not
// JSON and lines too long to hold in memory are passed over, never fatal.
package transcript

// Just over 500 lines: one incremental reader, whose bounds (bytes per
// read, line length, offsets) must be read together to be trusted.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/bimri/bimri-hook/privacy"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/tidwall/gjson"
)

// maxLineSize is the longest line that is parsed. Longer lines (a Write of
// a huge file, say) are skipped without being held in memory, and counted
// in BadLines.
const maxLineSize = 4 << 20

// maxDepth is the deepest nesting of arrays and objects in a line that is
// parsed. Claude Code's lines nest about a dozen deep; gjson validates
// recursively, at a cost that grows faster than the depth (a megabyte of
// '[' takes seconds), so deeper lines are counted in BadLines instead.
const maxDepth = 128

// maxPromptRunes is the most of a prompt that Summary.FirstPrompt keeps:
// enough to say what a session was about, not a pasted file.
const maxPromptRunes = 2000

// Summary is what bimri-hook needs to know about a stretch of a transcript.
type Summary struct {
	// FirstPrompt is the text of the first real user prompt in the
	// stretch that does not ask for one of bimri-hook's own commands
	// (see productCommand), or "" if none: trimmed, passed through privacy.Clean (a
	// Summary is saved between hook events, and must not keep secrets
	// either) and cut to maxPromptRunes.
	FirstPrompt string
	// Prompts counts real user prompts: not tool results, slash-command
	// and local-command wrappers, compaction summaries, hook feedback,
	// interruption notices, meta lines or subagent (sidechain) prompts.
	Prompts int
	// FilesChanged holds the file paths given to Write, Edit, MultiEdit
	// and NotebookEdit calls whose tool_result succeeded, without
	// repeats, in first-seen order. A call the client denied, or that
	// failed, changed nothing and is not here.
	FilesChanged []string
	// FileChanges counts those tool calls.
	FileChanges int
	// PendingChanges are the file-changing calls whose tool_result has
	// not been read yet: they count once it is, and succeeded.
	PendingChanges []Change
	// RememberAttempts counts Bash calls that run bimri-hook's remember
	// command, and calls of its MCP remember tool, whatever became of
	// them.
	RememberAttempts int
	// RememberCalls counts those whose tool_result succeeded: the records
	// the agent made.
	RememberCalls int
	// RememberFailed counts remember calls whose tool_result was an error:
	// the client denied the call, or the command failed. They recorded
	// nothing.
	RememberFailed int
	// RememberDenied is true when a failed remember call was refused by
	// the client's permissions (see denialMarks), not by bimri-hook.
	RememberDenied bool
	// RememberError is the first line of the last failed remember call's
	// result, cleaned and cut to a line, for the user.
	RememberError string
	// Pending holds the tool_use ids of remember calls whose tool_result
	// has not been read yet. The client appends a result some
	// milliseconds after the call (measured at Stop), so a read can end
	// between the two; the next read, given Pending, settles them.
	Pending []string
	// Intents are the entries the pending remember calls ask for, by
	// their ids: kept until the result says whether the call ran.
	Intents []Intent
	// Denied are the entries of remember calls the client denied, in
	// the order made, without ids: SessionEnd records them as meant.
	Denied []Intent
	// ChangesSinceRemember counts the file changes (calls that
	// succeeded) made after the last remember call in the stretch; all
	// of them when there was none. A remember call resets it when it is
	// made, before its result is known: the agent answered the nudge,
	// and a failed call is counted in RememberFailed instead.
	ChangesSinceRemember int
	// PromptsSinceRemember is the same for prompts.
	PromptsSinceRemember int
	// Offset is the byte offset just after the last complete line
	// consumed: the next incremental read starts here.
	Offset int64
	// Skipped is true when the stretch was longer than the read limit and
	// its start was passed over unread.
	Skipped bool
	// BadLines counts lines that were not JSON objects, were longer than
	// maxLineSize or nested too deep to parse. They are otherwise ignored.
	BadLines int
}

// Change is a file-changing tool call (Write, Edit, MultiEdit,
// NotebookEdit) whose result is not known yet.
type Change struct {
	ID   string // its tool_use id
	Path string // the file it names
	// BeforeRemember is set when a remember call was made after it: once
	// it succeeds it is a change, but not one since that record.
	BeforeRemember bool
}

// maxPendingChanges bounds Summary.PendingChanges: a call whose result
// never came (the session was killed) must not grow the saved state
// forever; the oldest is dropped, as a change that never happened.
const maxPendingChanges = 64

// ReadMore reads the transcript at path from where s ended, settling the
// remember calls and file changes s left pending with the results that
// follow, and returns s with that stretch added (see add).
func (s Summary) ReadMore(path string, limit int64) (Summary, error) {
	next, err := readFile(path, s.Offset, limit, s)
	return s.add(next), err
}

// readFile summarises the transcript at path from offset from, reading
// at most limit bytes (no limit if limit <= 0), settling what prev, the
// stretch before, left pending. When more than limit bytes follow from,
// only the last limit bytes are read, starting at the first whole line
// in them, and Skipped is set; if no line ends in them, nothing is read
// and Offset stays at from. When from is past the end of the file (the
// transcript was replaced or truncated) or negative, reading starts at 0.
func readFile(path string, from int64, limit int64, prev Summary) (Summary, error) {
	f, info, err := safefile.Open(path)
	if err != nil {
		return Summary{Offset: from}, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	size := info.Size()
	if from < 0 || from > size {
		from = 0
	}
	start, skipped, partial := from, false, false
	if limit > 0 && size-from > limit {
		start, skipped = size-limit, true
		// start may fall inside a line; it is a line start only if the
		// byte before it ends a line.
		var b [1]byte
		if _, err := f.ReadAt(b[:], start-1); err != nil {
			return Summary{Offset: from}, fmt.Errorf("read transcript: %w", err)
		}
		partial = b[0] != '\n'
	}
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return Summary{Offset: from}, fmt.Errorf("read transcript: %w", err)
	}
	sum, err := read(f, start, limit, partial, prev)
	sum.Skipped = skipped
	if sum.Offset == start && partial {
		// No line ended in the bytes read, so start is still inside a
		// line: leave the next read to try again from where this one was
		// asked to begin.
		sum.Offset = from
	}
	return sum, err
}

// read summarises the lines that r holds, reading at most limit bytes
// (no limit if limit <= 0), and settles the pending remember calls and
// file changes of prev, the stretch before. start is the offset in the
// transcript where r is positioned; it is the base of Summary.Offset.
// When partial, r starts in the middle of a line, and the rest of it is
// passed over first. A last line without a newline is not consumed,
// since Claude Code may still be writing it: Offset stays before it and
// the next read sees it whole.
//
// On a read error the Summary covers the lines consumed before it, so its
// Offset can still be used.
func read(r io.Reader, start, limit int64, partial bool, prev Summary) (Summary, error) {
	if limit > 0 {
		r = io.LimitReader(r, limit)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	sr := summaryReader{sum: Summary{Offset: start, Pending: slices.Clone(prev.Pending), PendingChanges: slices.Clone(prev.PendingChanges), Intents: slices.Clone(prev.Intents)}}
	sr.seen = make(map[string]bool, len(prev.FilesChanged))
	for _, f := range prev.FilesChanged {
		sr.seen[f] = true // add merges them: this stretch lists only new ones
	}
	var (
		line    []byte // the current line, when it is longer than br's buffer
		size    int64  // bytes of the current line read so far
		tooLong bool   // the current line is over maxLineSize
		discard = partial
	)
	for {
		chunk, err := br.ReadSlice('\n')
		size += int64(len(chunk))
		complete := err == nil
		if !discard && !tooLong && (len(line) > 0 || !complete) {
			if size > maxLineSize {
				tooLong, line = true, line[:0]
			} else {
				line = append(line, chunk...)
			}
		}
		if complete {
			switch {
			case discard:
			case tooLong:
				sr.sum.BadLines++
			case len(line) > 0:
				sr.addLine(line)
			default: // the whole line was in br's buffer: no copy
				sr.addLine(chunk)
			}
			sr.sum.Offset += size
			line, size, tooLong, discard = line[:0], 0, false, false
			continue
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return sr.sum, nil
		default:
			return sr.sum, fmt.Errorf("read transcript: %w", err)
		}
	}
}

// summaryReader adds lines to a Summary.
type summaryReader struct {
	sum  Summary
	seen map[string]bool // sum.FilesChanged as a set
}

func (sr *summaryReader) addLine(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if line[0] != '{' || tooDeep(line) || !gjson.ValidBytes(line) {
		sr.sum.BadLines++
		return
	}
	m := membersOf(line)
	switch m.typ.String() {
	case "user":
		sr.addUser(m)
	case "assistant":
		sr.addAssistant(m.message.Get("content"))
	}
}

// lineMembers are the members of a transcript line the summary reads, as
// gjson.Get finds them: the first of each name at the top level.
type lineMembers struct {
	typ, isMeta, isCompactSummary, isSidechain, message gjson.Result
}

// membersOf reads them in one pass over the line's members. Get would
// read the line again for each, and to its end for each one missing (most
// lines have no isMeta): a line of tool output, up to megabytes, was read
// five times. Parsing copies the line once, which costs less than one
// more read of it, and keeps what the summary keeps off the read buffer.
func membersOf(line []byte) lineMembers {
	var m lineMembers
	gjson.ParseBytes(line).ForEach(func(key, value gjson.Result) bool {
		var member *gjson.Result
		switch key.Str {
		case "type":
			member = &m.typ
		case "isMeta":
			member = &m.isMeta
		case "isCompactSummary":
			member = &m.isCompactSummary
		case "isSidechain":
			member = &m.isSidechain
		case "message":
			member = &m.message
		default:
			return true
		}
		if !member.Exists() {
			*member = value
		}
		return true
	})
	return m
}

// tooDeep reports whether line nests arrays and objects more than
// maxDepth deep. It does not check that line is JSON. Most of a line is
// inside strings (tool output), so a string is crossed by searching for
// its closing quote, not byte by byte.
func tooDeep(line []byte) bool {
	depth := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			end := closingQuote(line, i+1)
			if end < 0 {
				return false
			}
			i = end
		case '{', '[':
			depth++
			if depth > maxDepth {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

// closingQuote is the index of the quote that ends the string whose body
// starts at from: the first one not escaped by an odd run of
// backslashes. -1 if none.
func closingQuote(line []byte, from int) int {
	for {
		q := bytes.IndexByte(line[from:], '"')
		if q < 0 {
			return -1
		}
		q += from
		backslashes := 0
		for j := q - 1; j >= from && line[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q
		}
		from = q + 1
	}
}

func (sr *summaryReader) addUser(m lineMembers) {
	if m.isSidechain.Bool() {
		return
	}
	content := m.message.Get("content")
	if len(sr.sum.Pending)+len(sr.sum.PendingChanges) > 0 && content.IsArray() {
		sr.settle(content)
	}
	if m.isMeta.Bool() || m.isCompactSummary.Bool() {
		return
	}
	text, ok := promptText(content)
	if !ok {
		return
	}
	sr.sum.Prompts++
	sr.sum.PromptsSinceRemember++
	if sr.sum.FirstPrompt == "" && !asksProductCommand(text) {
		// Clean before cutting: a cut could leave part of a secret that
		// no longer looks like one.
		sr.sum.FirstPrompt = shorten(privacy.Clean(text), maxPromptRunes)
	}
}

// notPrompts begin user messages that Claude Code writes itself.
var notPrompts = []string{
	"<local-command-",         // output of /commands run in the client
	"<command-name>",          // a slash command
	"<command-message>",       // a slash command
	"<command-args>",          // a slash command
	"<bash-input>",            // ! shell command
	"<bash-stdout>",           // ! shell command output
	"<bash-stderr>",           // ! shell command output
	"<system-reminder>",       // context added by the client
	"[Request interrupted by", // the user pressed Esc
	"Stop hook feedback:",     // a Stop hook blocked
	"This session is being continued from a previous conversation", // compaction summary
	"Caveat: The messages below were generated by the user while running local commands",
}

// promptText returns the text of a user message's content and whether the
// message is a real prompt. Content is a string or an array of blocks; an
// array holding a tool_result is a tool's answer, not a prompt. A prompt
// of only images is a prompt with no text.
func promptText(content gjson.Result) (string, bool) {
	var text string
	switch {
	case content.Type == gjson.String:
		text = content.Str
	case content.IsArray():
		var texts []string
		media, toolResult := false, false
		content.ForEach(func(_, block gjson.Result) bool {
			switch block.Get("type").String() {
			case "tool_result":
				toolResult = true
				return false
			case "text":
				t := strings.TrimSpace(block.Get("text").String())
				if t != "" && !strings.HasPrefix(t, "<system-reminder>") {
					texts = append(texts, t)
				}
			case "image", "document":
				media = true
			}
			return true
		})
		if toolResult || (len(texts) == 0 && !media) {
			return "", false
		}
		text = strings.Join(texts, "\n")
	default:
		return "", false
	}
	text = strings.TrimSpace(text)
	if text == "" && content.Type == gjson.String {
		return "", false
	}
	for _, p := range notPrompts {
		if strings.HasPrefix(text, p) {
			return "", false
		}
	}
	return strings.ToValidUTF8(text, "\uFFFD"), true
}

func (sr *summaryReader) addAssistant(content gjson.Result) {
	content.ForEach(func(_, block gjson.Result) bool {
		if block.Get("type").String() != "tool_use" {
			return true
		}
		input := block.Get("input")
		switch block.Get("name").String() {
		case "Write", "Edit", "MultiEdit", "NotebookEdit":
			path := input.Get("file_path").String()
			if path == "" {
				path = input.Get("notebook_path").String()
			}
			sr.addPendingChange(block.Get("id").String(), strings.ToValidUTF8(path, "\uFFFD"))
		case "Bash":
			if command := input.Get("command").String(); isRemember(command) {
				sr.addRemember(block.Get("id").String())
				if in, ok := intentOfCommand(command); ok {
					sr.addIntent(block.Get("id").String(), in)
				}
			}
		default:
			if isRememberTool(block.Get("name").String()) {
				sr.addRemember(block.Get("id").String())
				if in, ok := intentOfTool(input); ok {
					sr.addIntent(block.Get("id").String(), in)
				}
			}
		}
		return true
	})
}

// addRemember counts a remember call, by Bash or MCP, whose result is to
// come.
func (sr *summaryReader) addRemember(id string) {
	sr.sum.RememberAttempts++
	sr.sum.Pending = append(sr.sum.Pending, id)
	sr.sum.ChangesSinceRemember = 0
	sr.sum.PromptsSinceRemember = 0
	for i := range sr.sum.PendingChanges {
		sr.sum.PendingChanges[i].BeforeRemember = true
	}
}

// isRememberTool says whether a tool's name is bimri-hook's MCP remember
// tool as a client names it: mcp__plugin_bimri-hook_bimri__remember from
// the plugin, mcp__bimri__remember from a server the user added by a name
// holding "bimri".
func isRememberTool(name string) bool {
	server, ok := strings.CutSuffix(name, "__remember")
	return ok && strings.HasPrefix(server, "mcp__") && strings.Contains(server, "bimri")
}

// maxIntents bounds Summary.Intents and Summary.Denied, as
// maxPendingChanges does the changes.
const maxIntents = 16

// addIntent keeps the entry a pending remember call asks for.
func (sr *summaryReader) addIntent(id string, in Intent) {
	if len(sr.sum.Intents) == maxIntents {
		sr.sum.Intents = slices.Delete(sr.sum.Intents, 0, 1)
	}
	in.ID = id
	sr.sum.Intents = append(sr.sum.Intents, in)
}

// takeIntent removes and returns the entry the call id asked for.
func (sr *summaryReader) takeIntent(id string) (Intent, bool) {
	i := slices.IndexFunc(sr.sum.Intents, func(in Intent) bool { return in.ID == id })
	if i < 0 {
		return Intent{}, false
	}
	in := sr.sum.Intents[i]
	if sr.sum.Intents = slices.Delete(sr.sum.Intents, i, i+1); len(sr.sum.Intents) == 0 {
		sr.sum.Intents = nil
	}
	in.ID = ""
	return in, len(sr.sum.Denied) < maxIntents
}

// settle counts the results, in a user message's content, of pending
// remember calls and file changes: a success is a record or a change, an
// error (a denial, a failure) is neither.
func (sr *summaryReader) settle(content gjson.Result) {
	content.ForEach(func(_, block gjson.Result) bool {
		if block.Get("type").String() != "tool_result" {
			return true
		}
		id := block.Get("tool_use_id").String()
		if c := slices.IndexFunc(sr.sum.PendingChanges, func(c Change) bool { return c.ID == id }); c >= 0 {
			change := sr.sum.PendingChanges[c]
			if sr.sum.PendingChanges = slices.Delete(sr.sum.PendingChanges, c, c+1); len(sr.sum.PendingChanges) == 0 {
				sr.sum.PendingChanges = nil // as a summary that never had one
			}
			if !block.Get("is_error").Bool() {
				sr.addChange(change)
			}
			return true
		}
		i := slices.Index(sr.sum.Pending, id)
		if i < 0 {
			return true
		}
		sr.sum.Pending = slices.Delete(sr.sum.Pending, i, i+1)
		intent, hasIntent := sr.takeIntent(id)
		if !block.Get("is_error").Bool() {
			sr.sum.RememberCalls++
			return true
		}
		sr.sum.RememberFailed++
		text := resultText(block.Get("content"))
		if denied(text) {
			sr.sum.RememberDenied = true
			if hasIntent {
				sr.sum.Denied = append(sr.sum.Denied, intent)
			}
		}
		sr.sum.RememberError = shorten(oneLine(privacy.Clean(firstLine(text))), maxErrorRunes)
		return true
	})
}

// maxErrorRunes bounds Summary.RememberError.
const maxErrorRunes = 200

// resultText is a tool_result's content as text: a string, or the text
// of its text blocks.
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

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// denialMarks are phrases of the results Claude Code gives a tool call it
// did not run for want of permission: "This command requires approval"
// (measured, 2.1.328, -p), and the wordings of a user's refusal.
var denialMarks = []string{"requires approval", "permission", "denied", "rejected", "doesn't want to proceed"}

func denied(text string) bool {
	text = strings.ToLower(text)
	return slices.ContainsFunc(denialMarks, func(m string) bool { return strings.Contains(text, m) })
}

// addPendingChange notes a file-changing call, which counts once its
// result says it succeeded.
func (sr *summaryReader) addPendingChange(id, path string) {
	if len(sr.sum.PendingChanges) == maxPendingChanges {
		sr.sum.PendingChanges = slices.Delete(sr.sum.PendingChanges, 0, 1)
	}
	sr.sum.PendingChanges = append(sr.sum.PendingChanges, Change{ID: id, Path: path})
}

// addChange counts a file change that happened.
func (sr *summaryReader) addChange(c Change) {
	sr.sum.FileChanges++
	if !c.BeforeRemember {
		sr.sum.ChangesSinceRemember++
	}
	if c.Path == "" || sr.seen[c.Path] {
		return
	}
	if sr.seen == nil {
		sr.seen = make(map[string]bool)
	}
	sr.seen[c.Path] = true
	sr.sum.FilesChanged = append(sr.sum.FilesChanged, c.Path)
}

// rememberCommand matches a shell command that runs bimri-hook (or bimri)
// with the word remember after it: "/path/to/bimri-hook remember ...",
// "${CLAUDE_PLUGIN_ROOT}/bin/bimri-hook" remember, and the like. The name
// may carry a version, as the plugin launcher's cached build does
// ("$CLAUDE_PLUGIN_DATA/bin/bimri-hook-0.1.0 remember"), but must otherwise
// stand alone, so "cat bimri.md" is not the program.
var rememberCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)(?:^|[^\w.-])bimri(?:-hook)?(?:-v?\d[\w.+-]*)?(?:\.exe)?(?:[^\w.-].*)?\bremember\b`)
})

// productCommand matches text that names one of bimri-hook's own
// commands other than remember, which is recorded as itself: "run
// bimri-hook install --link", "`~/.local/bin/bimri-hook doctor`". A
// prompt asking for one (install's advice is to ask the agent for
// install --link) is the product's business, not the session's work, so
// it is never a session's FirstPrompt. The names are the CLI's; a new
// command missing here only costs a fallback line naming it.
var productCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\w.-])bimri-hook(?:-v?\d[\w.+-]*)?(?:\.exe)?["'\x60]?\s+` +
		`(?:install|uninstall|doctor|show|forget|why|forecast|maintain|search|restore|revive|version|` +
		`off|on|simulate|hook|mcp|browse|merge-driver|help)\b`)
})

func asksProductCommand(prompt string) bool {
	return strings.Contains(strings.ToLower(prompt), "bimri-hook") && productCommand().MatchString(prompt)
}

func isRemember(command string) bool {
	return strings.Contains(command, "bimri") && strings.Contains(command, "remember") &&
		rememberCommand().MatchString(command)
}

// add combines s, a summary of an earlier stretch, with next, a summary of
// the stretch that follows it. Counts add up, files merge without repeats,
// and the since-remember counts restart if next saw a remember call.
// FirstPrompt is s's unless s has none; Offset, Pending and PendingChanges
// are next's (next is read given s's, as ReadMore does); the remember error is next's
// if it has one; Skipped is set if either skipped.
func (s Summary) add(next Summary) Summary {
	out := s
	if out.FirstPrompt == "" {
		out.FirstPrompt = next.FirstPrompt
	}
	out.Prompts += next.Prompts
	out.FileChanges += next.FileChanges
	out.RememberAttempts += next.RememberAttempts
	out.RememberCalls += next.RememberCalls
	out.RememberFailed += next.RememberFailed
	out.RememberDenied = s.RememberDenied || next.RememberDenied
	if next.RememberError != "" {
		out.RememberError = next.RememberError
	}
	out.Pending = slices.Clone(next.Pending)
	out.Intents = slices.Clone(next.Intents)
	out.Denied = append(slices.Clip(slices.Clone(s.Denied)), next.Denied...)
	out.PendingChanges = slices.Clone(next.PendingChanges)
	out.BadLines += next.BadLines
	if next.RememberAttempts > 0 {
		out.ChangesSinceRemember = next.ChangesSinceRemember
		out.PromptsSinceRemember = next.PromptsSinceRemember
	} else {
		out.ChangesSinceRemember += next.ChangesSinceRemember
		out.PromptsSinceRemember += next.PromptsSinceRemember
	}
	// A new slice, so that the result never shares an array with s.
	out.FilesChanged = slices.Clip(slices.Clone(s.FilesChanged))
	for _, f := range next.FilesChanged {
		if !slices.Contains(out.FilesChanged, f) {
			out.FilesChanged = append(out.FilesChanged, f)
		}
	}
	out.Offset = next.Offset
	out.Skipped = s.Skipped || next.Skipped
	return out
}
