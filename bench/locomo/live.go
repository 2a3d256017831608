//go:build bench

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// lived is what one conversation left: which entry holds which turn,
// what the questions recalled, and every entry recorded.
type lived struct {
	conv     conversation
	idDias   map[string][]string // entry ID -> the dialog IDs recorded as it
	unmapped int                 // turns whose remember named no entry
	inView   []string            // the IDs the next day's SessionStart shows
	recalled [][]string          // per question, the IDs its prompt recalled
	entries  []entry             // the file's and the archive's entries
	runs     int                 // processes run
}

type entry struct{ id, text string }

// workspace runs the binary on one temporary workspace, with a home of
// its own so that nothing reaches the user's global memory.
type workspace struct {
	bin, root, home string
	runs            int
}

func (w *workspace) run(day time.Time, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command(w.bin, args...)
	cmd.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir(),
		"CLAUDE_PROJECT_DIR=" + w.root, "BIMRI_TODAY=" + day.Format(time.DateOnly)}
	cmd.Dir = w.root
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), &out, &errb
	w.runs++
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("bimri-hook %s: %v: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// hookInput is a hook's payload as Claude Code writes it
// (cmd/bimri-hook/testdata/hook-inputs).
type hookInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	Source         string `json:"source,omitempty"`
	Reason         string `json:"reason,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
	StopHookActive *bool  `json:"stop_hook_active,omitempty"`
	LastMessage    string `json:"last_assistant_message,omitempty"`
}

// hook runs one event; the transcript is never written (the agent we
// model records through the command), so no fallback entry is made.
func (w *workspace) hook(day time.Time, in hookInput) (string, error) {
	in.Cwd = w.root
	in.TranscriptPath = filepath.Join(w.home, ".claude", "projects", "locomo", in.SessionID+".jsonl")
	data, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	out, err := w.run(day, data, "hook")
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		return "", err
	}
	var o struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &o); err != nil {
		return "", fmt.Errorf("%s answered %q: %w", in.Event, out, err)
	}
	return o.Specific.Context, nil
}

var recordedID = regexp.MustCompile(`\brecorded ([0-9a-f]{6,})\b`)

// recallID is how the hook names an item it shows: "(id 1a2b3c4d; ..." or
// "(id 1a2b3c4d)".
var recallID = regexp.MustCompile(`\(id ([0-9a-f]{6,})[;,)]`)

func idsIn(text string) []string {
	var ids []string
	seen := map[string]bool{}
	for _, m := range recallID.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			ids = append(ids, m[1])
		}
	}
	return ids
}

// turnText is what the agent records for a turn: who said it, what, and
// the photo they shared, on one line.
func turnText(t turn) string {
	text := t.speaker + ": " + t.text
	if t.caption != "" {
		text += " [shared a photo: " + t.caption + "]"
	}
	return strings.Join(strings.Fields(text), " ")
}

// live lives conversation c through the binary: each session is a
// Claude Code session on its day (SessionStart, one remember per turn,
// Stop, SessionEnd), then every question is asked the day after the last
// session, each as the first prompt of a session of its own.
func live(bin string, c conversation) (lived, error) {
	dir, err := os.MkdirTemp("", "bimri-locomo-")
	if err != nil {
		return lived{}, err
	}
	defer os.RemoveAll(dir)
	// The hooks' answers name the workspace, and the view's room is what
	// the cap leaves them: a path one character longer can show one item
	// less, and recall leaves out what the view showed. MkdirTemp's
	// random suffix is 1 to 10 digits, so the workspace's name pads the
	// path to one length, and every run gives the same figures.
	pad := strings.Repeat("_", max(0, 10-len(strings.TrimPrefix(filepath.Base(dir), "bimri-locomo-"))))
	w := &workspace{bin: bin, root: filepath.Join(dir, "ws"+pad), home: filepath.Join(dir, "home")}
	for _, d := range []string{w.root, w.home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return lived{}, err
		}
	}
	l := lived{conv: c, idDias: map[string][]string{}}
	no := false
	for _, s := range c.sessions {
		sid := fmt.Sprintf("locomo-%s-session-%d", c.name, s.number)
		if _, err := w.hook(s.date, hookInput{SessionID: sid, Event: "SessionStart", Source: "startup"}); err != nil {
			return l, err
		}
		for _, t := range s.turns {
			out, err := w.run(s.date, nil, "remember", "--dir", w.root, "--tags", tagOf(t.speaker), "--", turnText(t))
			if err != nil {
				return l, fmt.Errorf("conversation %s, %s: %w", c.name, t.dia, err)
			}
			m := recordedID.FindSubmatch(out)
			if m == nil {
				l.unmapped++
				continue
			}
			l.idDias[string(m[1])] = append(l.idDias[string(m[1])], t.dia)
		}
		if _, err := w.hook(s.date, hookInput{SessionID: sid, Event: "Stop", StopHookActive: &no, LastMessage: "Noted."}); err != nil {
			return l, err
		}
		if _, err := w.hook(s.date, hookInput{SessionID: sid, Event: "SessionEnd", Reason: "other"}); err != nil {
			return l, err
		}
	}
	day := c.sessions[len(c.sessions)-1].date.AddDate(0, 0, 1)
	view, err := w.hook(day, hookInput{SessionID: "locomo-" + c.name + "-view", Event: "SessionStart", Source: "startup"})
	if err != nil {
		return l, err
	}
	l.inView = idsIn(view)
	for i, q := range c.qa {
		sid := fmt.Sprintf("locomo-%s-question-%d", c.name, i+1)
		ctx, err := w.hook(day, hookInput{SessionID: sid, Event: "UserPromptSubmit", Prompt: q.text})
		if err != nil {
			return l, err
		}
		l.recalled = append(l.recalled, idsIn(ctx))
	}
	l.entries, err = entries(w.root, day)
	l.runs = w.runs
	return l, err
}

// tagOf is the tag the agent gives a turn: its speaker's first name.
func tagOf(speaker string) string {
	f := strings.Fields(strings.ToLower(speaker))
	if len(f) == 0 {
		return "conversation"
	}
	return strings.Trim(f[0], ".,'\"")
}

// entries are every entry the workspace holds, in the file and in the
// archive, each ID once (its last version).
func entries(root string, day time.Time) ([]entry, error) {
	store, err := store.OpenStore(root, memfile.DefaultConfig(), store.StoreOptions{LockTimeout: 2 * time.Second, Today: day, NoSync: true})
	if err != nil {
		return nil, err
	}
	read, err := store.Read()
	if err != nil {
		return nil, err
	}
	recs, err := store.ReadArchive()
	if err != nil {
		return nil, err
	}
	var all []entry
	at := map[string]int{}
	add := func(id, text string) {
		if i, ok := at[id]; ok {
			all[i].text = text
			return
		}
		at[id] = len(all)
		all = append(all, entry{id, text})
	}
	for _, r := range recs {
		if r.Entry != nil {
			add(r.Entry.ID, r.Entry.Text)
		}
	}
	for t := 1; t <= 2; t++ {
		for _, e := range read.File.Entries(t) {
			add(e.ID, e.Text)
		}
	}
	return all, nil
}
