package hooks

import (
	"bytes"
	"maps"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
)

// What a session sees at its start, worked out by one function for
// SessionStart, which shows it, and for recall, which brings back what it
// did not show. The context is the view, then the instructions that
// always follow it (how to record, the intake of a new workspace, what to
// do with unread lines), then the messages of the moment (the upkeep
// advice, the deep maintenance brief, a notice). The view's room is what
// the instructions and upkeepShare of the limit leave: recall can work
// that out from the file alone. The messages take that share, or more
// when the whole memory fits; what they leave unused, the view fills,
// in its order of priority, beyond what recall counts as shown.

// upkeepShare is the share of the context limit, in percent, kept for
// the messages of the moment.
const upkeepShare = 15

// startContext assembles the view, the instructions and the messages
// within the context limit, and records what the view showed whole for
// the session's prompts (see seenAtStart). foreign says which of f's
// items were not recorded here (View.Foreign).
func startContext(env Env, in Input, f *memfile.File, foreign func(string) bool, notice, advice string) string {
	fixed := fixedTail(env, in, f)
	room := sureRoom(env, f)
	avail := env.Config.ContextLimit - memfile.Length(fixed) - 2
	full := upkeepText(env, f, notice, advice)
	upkeep := fitLines(full, upkeepRoom(env))
	limit := avail
	if upkeep != "" {
		limit -= memfile.Length(upkeep) + 2
	}
	lay := sessionView(env, f, foreign, limit, room)
	recordSeen(env, in, lay.Whole)
	if lay.All && upkeep != full {
		// The whole memory fits: the messages may take what it leaves.
		upkeep = fitLines(full, avail-memfile.Length(lay.Text)-2)
	}
	if upkeep == "" {
		return lay.Text + "\n\n" + fixed
	}
	return lay.Text + "\n\n" + fixed + "\n\n" + upkeep
}

// fixedTail is what always follows the view: the instructions, the
// intake while the workspace's memory is new, and what to do with unread
// lines, within the room the context leaves them.
func fixedTail(env Env, in Input, f *memfile.File) string {
	parts := []string{instructions(env)}
	if len(f.Entries(1)) == 0 && f.Header.Sessions == 0 && in.Source != "compact" {
		parts = append(parts, intake(env, globalFacts(env)))
	}
	if hasUnread(f) {
		parts = append(parts, unreadInstructions(env))
	}
	return fitLines(strings.Join(parts, "\n\n"), env.Config.ContextLimit/2-upkeepRoom(env))
}

// upkeepRoom is the room kept for the messages of the moment.
func upkeepRoom(env Env) int { return env.Config.ContextLimit * upkeepShare / 100 }

// sureRoom is the room the view of f always has, whatever the messages
// of the moment: the limit less the fixed tail (as a new session's, the
// longest) and upkeepRoom, with the blank lines between.
func sureRoom(env Env, f *memfile.File) int {
	fixed := fixedTail(env, Input{Source: "startup"}, f)
	return env.Config.ContextLimit - memfile.Length(fixed) - 2 - upkeepRoom(env) - 2
}

// upkeepText is the messages of the moment: the deep maintenance brief
// (with the advice in it) on a deep session, else the advice, and the
// notice.
func upkeepText(env Env, f *memfile.File, notice, advice string) string {
	var parts []string
	if n := f.Header.Sessions; n > 0 && n%env.Config.DeepEvery == 0 {
		_, rep := memfile.Maintain(f, env.Today, env.Config, memfile.Options{Deep: true})
		parts = append(parts, judgmentBrief(env, n, rep.Deep, advice))
	} else if advice != "" {
		parts = append(parts, advice)
	}
	if notice != "" {
		parts = append(parts, "Note: "+notice)
	}
	return strings.Join(parts, "\n\n")
}

// sessionView lays out the memory view of f in limit characters, sure of
// them (memfile.View.Sure), with the archive's records of the last week
// for its digest, marking what foreign names.
func sessionView(env Env, f *memfile.File, foreign func(string) bool, limit, sure int) memfile.Layout {
	return memfile.ViewLayout(f, memfile.View{
		Limit:    limit,
		Sure:     sure,
		Global:   env.Global,
		Archive:  env.Store.Names().Archive,
		Search:   searchCommand(env),
		Archived: env.Store.RecentArchive(memfile.WeekStart(f)),
		Foreign:  foreign,
	})
}

// seenAtStart is what the session's SessionStart view showed whole, as
// SessionStart recorded it; an entry or pattern not among them is for
// recall. A session whose start was not recorded (it began before this
// was kept, or its state is gone) gets what the view of f shows in the
// room it always has, worked out again.
func seenAtStart(env Env, in Input, f *memfile.File) map[string]bool {
	if data := env.Store.ReadState(seenKey(in)); data != nil {
		seen := map[string]bool{}
		for _, id := range decodeList(data) {
			seen[id] = true
		}
		return seen
	}
	room := sureRoom(env, f)
	return sessionView(env, f, env.Store.Foreign(), room, room).Whole
}

// seenKey is the state that holds what a session's start showed whole:
// a blob of its own, which only the session's SessionStart writes.
func seenKey(in Input) string { return "seen-" + in.SessionID }

// recordSeen keeps what a SessionStart view showed whole for the
// session's prompts: recall then reads it rather than laying the view
// out again, with the week's archived records, at every prompt. It is
// bookkeeping: when it cannot be written, the prompts work it out. A
// SessionStart without its config writes nothing (see SessionStart),
// this neither.
func recordSeen(env Env, in Input, whole map[string]bool) {
	if in.SessionID == "" || env.ConfigErr != nil {
		return
	}
	data := encodeList(slices.Sorted(maps.Keys(whole)))
	if !bytes.Equal(env.Store.ReadState(seenKey(in)), data) {
		_ = env.Store.WriteState(seenKey(in), data)
	}
}
