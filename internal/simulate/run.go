package simulate

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// Options are what `simulate EVENT` was given. IsSet and Value read its
// flags by name, for CheckFlags.
type Options struct {
	Event, Root          string
	Transcript           string // --transcript, or "" for the session's own
	ContextOnly, Verbose bool
	IsSet                func(string) bool
	Value                func(string) string
	StopHookActive       bool
}

// Answer answers one event as `bimri-hook hook` does, with the store at
// dir and the config of the workspace root.
type Answer func(root, dir string, in hooks.Input) (hooks.Output, error)

// Run builds the payload the client would send for the event, answers it
// on a copy of the workspace's memory (the workspace's files never
// change), and prints on stdout exactly what the client would receive;
// stderr says it ran on a copy and, when the client receives nothing, why.
func Run(stdout, stderr io.Writer, o Options, answer Answer) error {
	ev, ok := CanonicalEvent(o.Event)
	if !ok {
		return fmt.Errorf("simulate: unknown event %q (one of %s)", o.Event, event.List(Events))
	}
	if err := CheckFlags(ev, o.IsSet, o.Value); err != nil {
		return err
	}
	session := o.Value("session")
	transcript := TranscriptFor(o.Root, session)
	if o.Transcript != "" {
		var err error
		if transcript, err = filepath.Abs(o.Transcript); err != nil {
			return fmt.Errorf("--transcript %q: %w", o.Transcript, err)
		}
	}
	payload := Payload{
		Event: ev, SessionID: session, TranscriptPath: transcript, Cwd: o.Root,
		Source: o.Value("source"), Reason: o.Value("reason"), Trigger: o.Value("trigger"),
		Prompt: o.Value("prompt"), StopHookActive: o.StopHookActive,
	}.JSON()
	if o.Verbose {
		PrintPayload(stderr, payload)
	}
	in, err := hooks.Decode(payload)
	if err != nil {
		return err
	}
	out, err := onCopy(stderr, o.Root, in, answer)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Event, err)
	}
	var buf bytes.Buffer
	if o.ContextOnly {
		if text, ok := ContextText(out); ok {
			buf.WriteString(text + "\n")
		}
	} else if err := out.Write(&buf); err != nil {
		return err
	}
	if o.Verbose {
		PrintAnswer(stderr, buf.Len(), out)
	}
	if buf.Len() == 0 {
		PrintNothing(stderr, ev, o.StopHookActive)
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// onCopy answers in on a copy of the workspace's memory, and says so. The
// answer names the workspace, not the copy.
func onCopy(stderr io.Writer, root string, in hooks.Input, answer Answer) (hooks.Output, error) {
	if !slices.Contains(event.Answered, in.Event) {
		return hooks.Output{}, nil
	}
	dir, remove, err := Copy(root, store.Names{Memory: memfile.MemoryName, Backup: memfile.BackupName, Archive: memfile.ArchiveName, State: store.StateDir})
	if err != nil {
		return hooks.Output{}, err
	}
	defer remove()
	in.TranscriptPath = CopyTranscript(root, dir, in.TranscriptPath)
	in.Cwd = dir
	out, err := answer(root, dir, in)
	PrintCopied(stderr, root)
	return Restate(out, dir, root), err
}

// TrailingFlags reads the flags written after EVENT (args[0]) with set:
// urfave/cli stops reading flags at the first argument, but `simulate Stop
// --stop-hook-active` is the natural order. isBool holds every flag's
// name: whether it is a bool, which takes no value.
func TrailingFlags(args []string, isBool map[string]bool, set func(name, value string) error) error {
	for i := 1; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			return fmt.Errorf("usage: simulate takes one EVENT, got also %q (see --help)", arg)
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		boolean, known := isBool[name]
		switch {
		case !known: // in urfave/cli's words for a flag before EVENT
			return fmt.Errorf("usage: flag provided but not defined: -%s (see --help)", name)
		case !hasValue && boolean:
			value = "true"
		case !hasValue && i+1 == len(args):
			return fmt.Errorf("usage: flag needs an argument: %s (see --help)", arg)
		case !hasValue:
			i++
			value = args[i]
		}
		if err := set(name, value); err != nil {
			return fmt.Errorf("usage: %s: %w (see --help)", arg, err)
		}
	}
	return nil
}
