package hooks

import (
	"bytes"
	"maps"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/memfile"
)

// What a session sees at its start, worked out by one function for
// SessionStart and for recall (which brings back what it did not show):
// the view, the instructions that always follow it, then the messages of
// the moment. The view's room is what the instructions and upkeepShare
// leave, so recall can work it out from the file alone; what the messages
// leave unused the view fills, beyond what recall counts as shown.

// upkeepShare is the percent of the context limit kept for the messages of the moment.
const upkeepShare = 15

// startContext lays out the view, instructions and messages within the
// limit, and records what the view showed whole (see seenAtStart).
func startContext(env Env, in Input, f *memfile.File, foreign func(string) bool, notice, advice string) string {
	fixed := fixedTail(env, in, f)
	room := sureRoom(env, f, inspect.Pick(in.Source == "startup", fixed, ""))
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
	return lay.Text + "\n\n" + fixed + inspect.Pick(upkeep == "", "", "\n\n"+upkeep)
}

// fixedTail always follows the view: the instructions, the intake while
// the memory is new, and what to do with unread lines.
func fixedTail(env Env, in Input, f *memfile.File) string {
	parts := []string{instructions(env)}
	if len(f.Entries(1)) == 0 && f.Header.Sessions == 0 && in.Source != "compact" {
		parts = append(parts, intake(env))
	}
	if len(f.Unread()) > 0 { // Tier 2 or 3 holds lines the view marks unread
		parts = append(parts, unreadInstructions(env))
	}
	return fitLines(strings.Join(parts, "\n\n"), env.Config.ContextLimit/2-upkeepRoom(env))
}

func upkeepRoom(env Env) int { return env.Config.ContextLimit * upkeepShare / 100 }

// sureRoom is the room the view of f always has: the limit less the
// longest fixed tail (a new session's, worked out unless given) and
// upkeepRoom.
func sureRoom(env Env, f *memfile.File, startup string) int {
	if startup == "" {
		startup = fixedTail(env, Input{Source: "startup"}, f)
	}
	return env.Config.ContextLimit - memfile.Length(startup) - 2 - upkeepRoom(env) - 2
}

// upkeepText is the deep maintenance brief (advice in it) on a deep
// session, else the advice, then the notice.
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

// sessionView lays out the view of f in limit characters, sure of sure,
// with the last week's archive for its digest.
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

// seenAtStart is what the session's SessionStart view showed whole, as it
// recorded it, or else the view of f in its sure room worked out again.
func seenAtStart(env Env, in Input, f *memfile.File) map[string]bool {
	if data := env.Store.ReadState(seenKey(in)); data != nil {
		seen := map[string]bool{}
		for _, id := range decodeJSON[[]string](data) {
			seen[id] = true
		}
		return seen
	}
	room := sureRoom(env, f, "")
	return sessionView(env, f, env.Store.Foreign(), room, room).Whole
}

func seenKey(in Input) string { return "seen-" + in.SessionID }

// recordSeen keeps what the view showed whole, so prompts need not lay it
// out again; bookkeeping, so a failed write is let go.
func recordSeen(env Env, in Input, whole map[string]bool) {
	if in.SessionID == "" || env.ConfigErr != nil {
		return
	}
	data := encodeJSON(slices.Sorted(maps.Keys(whole)))
	if !bytes.Equal(env.Store.ReadState(seenKey(in)), data) {
		_ = env.Store.WriteState(seenKey(in), data)
	}
}
