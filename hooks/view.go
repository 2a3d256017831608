package hooks

import (
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
// within the context limit. foreign says which of f's items were not
// recorded here (View.Foreign).
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

// seenAtStart is what a session's SessionStart view showed whole of f,
// as far as can be known without it: what the view shows in the room it
// always has. An entry or pattern not among them is for recall.
func seenAtStart(env Env, f *memfile.File) map[string]bool {
	room := sureRoom(env, f)
	return sessionView(env, f, env.Store.Foreign(), room, room).Whole
}
