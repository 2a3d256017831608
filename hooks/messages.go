package hooks

// Every sentence the hooks say to the model or the user, so the voice stays
// one voice, except three kinds: the context view itself is written by
// memfile/context.go, the memory file's repairs are worded by
// store/restore.go (Tx.Notice), and errors are worded where they arise
// (input.go, stdio.go, and the packages below) and printed once, on
// stderr, by cmd/bimri-hook.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/transcript"
	"github.com/bimri/bimri-hook/wiring"
)

// How the agent is told to change memory: with a shell command (the
// settings route, and the plugin without its MCP server), or with a call
// of bimri-hook's MCP tools when the client has them (env.Tools). Each
// function below gives the one or the other.

// rememberCommand is the exact command (or tool call) the agent is told
// to record with. The command's start comes from wiring, which writes the
// permission rule that must match it; the "--" lets a summary start with
// a dash. tier is "" or "1".
func rememberCommand(env Env, tier, importance string) string {
	if env.Tools.On {
		args := `"text": "One-line summary of what happened and the outcome.", "importance": ` + importance + `, "tags": ["tag1", "tag2"], "keywords": ["word1", "word2"]`
		if tier != "" {
			args += `, "tier": ` + tier
		}
		return toolCall(env, "remember", args)
	}
	if tier != "" {
		tier = "--tier " + tier + " "
	}
	return fmt.Sprintf("%s --dir %s %s--importance %s --tags tag1,tag2 --keywords word1,word2 -- \"One-line summary of what happened and the outcome.\"",
		wiring.Command{Binary: env.Binary}.Remember(), wiring.ShellWord(env.Store.Root()), tier, importance)
}

// agentCommand is a bimri-hook command for the agent, under the remember
// subcommand so the permission rule install writes covers it too.
func agentCommand(env Env, rest string) string {
	return fmt.Sprintf("%s --dir %s %s", wiring.Command{Binary: env.Binary}.Remember(), wiring.ShellWord(env.Store.Root()), rest)
}

// toolCall is a call of the MCP tool named name with JSON arguments args
// (the object's inside).
func toolCall(env Env, name, args string) string {
	return "`" + env.Tools.Prefix + name + "` with {" + args + "}"
}

// consolidateCommand replaces the entries ids (or "ID,ID,..." for the
// model to fill in) with one summary.
func consolidateCommand(env Env, ids []string, summary string) string {
	return idListCommand(env, "replaces", ids, `"ID", "ID", ...`, "ID,ID,...", summary)
}

// supersedeCommand records text as superseding the entries ids (or
// "ID" for the model to fill in).
func supersedeCommand(env Env, ids []string, text string) string {
	return idListCommand(env, "supersedes", ids, `"ID"`, "ID", text)
}

// idListCommand records text with a list of entry IDs in field (a
// remember flag of the same name), or the placeholder the model fills in
// when ids is nil: toolList in a tool call, cliList in a command.
func idListCommand(env Env, field string, ids []string, toolList, cliList, text string) string {
	if ids != nil {
		toolList, cliList = `"`+strings.Join(ids, `", "`)+`"`, strings.Join(ids, ",")
	}
	if env.Tools.On {
		return toolCall(env, "remember", `"`+field+`": [`+toolList+`], "text": "`+text+`"`)
	}
	return agentCommand(env, "--"+field+" "+cliList+` -- "`+text+`"`)
}

// promoteCommand moves entry id to Tier 1.
func promoteCommand(env Env, id string) string {
	if env.Tools.On {
		return toolCall(env, "remember", `"promote": "`+id+`"`)
	}
	return agentCommand(env, "--promote "+id)
}

// patternCommand writes the sentence of the pattern with tags.
func patternCommand(env Env, tags []string, sentence string) string {
	if env.Tools.On {
		return toolCall(env, "remember", `"tier": 3, "tags": ["`+strings.Join(tags, `", "`)+`"], "text": "`+sentence+`"`)
	}
	return agentCommand(env, "--tier 3 --tags "+strings.Join(tags, ",")+` -- "`+sentence+`"`)
}

// forgetCommand is the exact forget command, ID to fill in, with the
// archive's reason when one is given.
func forgetCommand(env Env, reason string) string {
	if env.Tools.On {
		args := `"id": "ID"`
		if reason != "" {
			args = `"id": "NOTE-ID", "reason": "` + reason + `"`
		}
		return toolCall(env, "forget", args)
	}
	// The start comes from wiring, as remember's does, so its permission
	// rule matches.
	forget := wiring.Command{Binary: env.Binary}.Sub("forget")
	if reason != "" {
		return fmt.Sprintf("%s --dir %s --reason %s NOTE-ID", forget, wiring.ShellWord(env.Store.Root()), reason)
	}
	return fmt.Sprintf("%s --dir %s ID", forget, wiring.ShellWord(env.Store.Root()))
}

// reviveCommand brings an archived entry back, ID to fill in.
func reviveCommand(env Env) string {
	if env.Tools.On {
		return toolCall(env, "revive", `"id": "ID"`)
	}
	return fmt.Sprintf("%s --dir %s ID", wiring.Command{Binary: env.Binary}.Sub("revive"), wiring.ShellWord(env.Store.Root()))
}

// searchCommand is how the view's footer says to search the file and the
// archive, WORDS for the model to fill in.
func searchCommand(env Env) string {
	if env.Tools.On {
		return "call " + toolCall(env, "recall", `"query": "WORDS"`)
	}
	return fmt.Sprintf("run: %s search --dir %s WORDS", wiring.ShellWord(env.Binary), wiring.ShellWord(env.Store.Root()))
}

// adviceText asks the agent for what only it can judge, with the exact
// commands: consolidating the oldest related entries and promoting a
// lasting decision when Tier 2 nears its budget, consolidating the oldest
// related decisions when what lasts nears its room in the view, and
// naming a pattern that has grown without a sentence. Empty when there is nothing to ask.
func adviceText(env Env, f *memfile.File, a memfile.Advice, name string) string {
	var b strings.Builder
	if len(a.Consolidate) > 0 {
		fmt.Fprintf(&b, "- Tier 2 is at ~%d of its %d tokens. The oldest related entries (tag %s) are %s. If they tell one story, replace them with one summary (it keeps their highest importance, all their tags and the newest date; the originals go to the archive):\n  %s\n",
			a.Tier2, a.Budget, a.ConsolidateTag, strings.Join(a.Consolidate, ", "),
			consolidateCommand(env, a.Consolidate, "One line saying what these entries say together."))
	}
	if len(a.Decisions) > 0 {
		fmt.Fprintf(&b, "- What lasts (Tier 1 and the importance-5 decisions) takes %d of the %d characters it has at session start, so not every decision will be shown much longer. The oldest related ones (tag %s) are %s. Replace them with one compact summary that keeps each decision in a few words and drops the story around it (at most %d characters; it stays importance 5, and the originals go to the archive):\n  %s\n",
			a.Lasting, a.Room, a.DecisionsTag, strings.Join(a.Decisions, ", "), memfile.MaxTextRunes,
			consolidateCommand(env, a.Decisions, "Tag decisions: first in a few words; second; ..."))
	}
	if a.Promote != "" {
		if e, _ := f.Find(a.Promote); e != nil {
			fmt.Fprintf(&b, "- Decision %s (importance 5, %s) has lasted: %q If it still holds, move it to Tier 1, where it never decays:\n  %s\n",
				e.ID, e.Date.Format("2006-01-02"), memfile.Inert(e.Text), promoteCommand(env, e.ID))
		}
	}
	if name != "" {
		if p := f.FindPattern(name); p != nil {
			tags := strings.Join(p.Tags, ",")
			fmt.Fprintf(&b, "- Pattern %s: tag %s recurs (%d entries, %s) but says nothing yet. If those entries show a habit, preference or rule (\"The user asks for a regression test with every bug fix.\"), write it:\n  %s\n",
				p.ID, tags, p.Observations, p.Level, patternCommand(env, p.Tags, "The habit or rule, in one sentence."))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "## Memory upkeep: your judgment, once, briefly\n" + strings.TrimRight(b.String(), "\n")
}

// instructions follow the memory in the SessionStart context: how to
// record, and the protocol's importance guide with its example sentences,
// which anchor the scores better than definitions do.
func instructions(env Env) string {
	return `## How to use this memory (bimri-hook)
The memory above persists across sessions. bimri-hook keeps it (backups, weights, pruning, patterns); your part is to record what matters. When you finish a task, make a decision, or learn a preference or constraint, record one entry with this ` + callWord(env) + ` (replace N, the tags, the text, and the keywords with two or three words a later question would use that the text does not):
` + rememberCommand(env, "", "N") + `
Importance, by example:
- 5 foundational, changes how every future session should work: "This project is a CLI tool for generating invoice PDFs." (add ` + tierOne(env) + `)
- 4 significant deliverable or key decision: "Migrated database layer from SQLite to PostgreSQL."
- 3 notable, useful for upcoming sessions: "Added unit tests for the auth module, 94% coverage."
- 2 minor, short-lived: "Fixed a typo in the config loader."
- 1 transient: "Ran lint pass, no issues."
When in doubt, record it: low-importance entries fade on their own. Skip what Claude Code's auto memory already keeps (build commands, file paths). Never record secrets. Do not edit bimri.md by hand.
` + supersedeLine(env) + `- Forget an entry that is wrong or outdated: ` + forgetCommand(env, "") + `
- Consolidate entries that tell one story into one summary: ` + consolidateCommand(env, nil, "Summary.") + `
- Write a pattern, a habit or rule seen across entries: ` + patternCommand(env, []string{"tag1"}, "The insight.")
}

// supersedeLine teaches supersession, with its newline.
func supersedeLine(env Env) string {
	c := supersedeCommand(env, nil, "What holds now.")
	return "- When an entry replaces an older one (a choice reversed, a deadline moved), record it as superseding it; the old one goes to the archive, marked: " + c + "\n"
}

// callWord is what the agent is told to make: a command or a tool call.
func callWord(env Env) string {
	if env.Tools.On {
		return "tool call"
	}
	return "command"
}

// tierOne is how the agent asks for Tier 1.
func tierOne(env Env) string {
	if env.Tools.On {
		return `"tier": 1`
	}
	return "--tier 1"
}

// intake asks for the protocol's orientation questions in a new workspace.
func intake(env Env, known []string) string {
	var b strings.Builder
	b.WriteString(`## New workspace: intake
This workspace's memory is new. Before other work, ask the user 3-5 quick orientation questions: what this project is for, their primary focus, how they like to work together, and any constraints. If they want to skip and get to work, respect that and record what you learn as you go. Record each answer in Tier 1 at importance 5:
`)
	b.WriteString(rememberCommand(env, "1", "5"))
	if len(known) > 0 {
		b.WriteString("\nAlready known from the user's global memory, so do not ask again:")
		for _, k := range known {
			b.WriteString("\n- " + k)
		}
	}
	return b.String()
}

// maxBriefList and maxBriefGroups bound the Tier 1 entries (oldest
// first) and the near-duplicate groups one brief names.
const (
	maxBriefList   = 12
	maxBriefGroups = 5
)

// judgmentBrief is the part of deep maintenance only the agent can do.
func judgmentBrief(env Env, sessions int, deep *memfile.DeepReport, advice string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Deep maintenance (session %d): your judgment is needed\n", sessions)
	b.WriteString("bimri-hook has merged exact duplicates, cleaned tags and recounted patterns. Briefly, before other work:\n")
	forget := forgetCommand(env, "")
	if !env.Tools.On {
		forget = "`" + forget + "`"
	}
	// The brief shares the context with the view: bounded lists keep it
	// from taking the room the decisions have there, and from pushing the
	// upkeep advice after them out of the context. Each deep pass brings
	// up the next ones.
	if review := deep.ReviewTier1; len(review) > 0 {
		more := ""
		if len(review) > maxBriefList {
			review, more = review[:maxBriefList], fmt.Sprintf(" and %d more", len(review)-maxBriefList)
		}
		fmt.Fprintf(&b, "- Check each Tier 1 entry is still true (%s%s). Remove an outdated one with %s and record the corrected fact with remember, %s.\n", strings.Join(review, ", "), more, forget, tierOne(env))
	}
	for i, g := range deep.NearDuplicates {
		if i == maxBriefGroups {
			fmt.Fprintf(&b, "- %d more groups of near-duplicates are left for a later deep maintenance.\n", len(deep.NearDuplicates)-i)
			break
		}
		fmt.Fprintf(&b, "- These entries say nearly the same thing: %s. Record one merged entry, then forget the others.\n", strings.Join(g, ", "))
	}
	if advice != "" {
		b.WriteString(advice + "\n")
	}
	if len(deep.ReviewTier1) == 0 && len(deep.NearDuplicates) == 0 && advice == "" {
		b.WriteString("- Nothing needs review this time.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// maintenanceReport answers "run BIMRI maintenance".
func maintenanceReport(rep memfile.Report, env Env, f *memfile.File) string {
	sessions := f.Header.Sessions
	a := memfile.Advise(f, env.Today, env.Config)
	var b strings.Builder
	b.WriteString("BIMRI deep maintenance ran just now, at the user's request.\n")
	fmt.Fprintf(&b, "- Archived: %d item(s). Merged duplicate groups: %d. Tags dropped: %d.\n", len(rep.Removed), len(rep.Deep.Merged), len(rep.Deep.DroppedTags))
	for _, a := range rep.Removed {
		if a.Entry != nil {
			fmt.Fprintf(&b, "  - %s: %s (%s)\n", a.Entry.ID, memfile.Inert(a.Entry.Text), a.Reason)
		} else if a.Pattern != nil {
			fmt.Fprintf(&b, "  - %s: %s (%s)\n", a.Pattern.ID, memfile.Inert(a.Pattern.Text), a.Reason)
		}
	}
	if s := rep.Summary(); s != "" {
		fmt.Fprintf(&b, "- Changes: %s.\n", s)
	}
	fmt.Fprintf(&b, "- Tokens: Tier 1 ~%d/%d, Tier 2 ~%d/%d, Tier 3 ~%d/%d, total ~%d.\n",
		rep.Tokens.Tiers[0], rep.Budgets[0], rep.Tokens.Tiers[1], rep.Budgets[1], rep.Tokens.Tiers[2], rep.Budgets[2], rep.Tokens.Total)
	for _, w := range rep.Warnings {
		fmt.Fprintf(&b, "- Warning: %s\n", w)
	}
	b.WriteString(judgmentBrief(env, sessions, rep.Deep, adviceText(env, f, a, first(a.Unnamed))))
	b.WriteString("\nTell the user briefly what changed.")
	return b.String()
}

// unreadInstructions tell the model what to do with the lines the view
// marks unread: they are kept, but never decay, leave or count.
func unreadInstructions(env Env) string {
	return "## Unread lines\nLines marked unread above are kept in " + env.Store.Names().Memory + " word for word, but they are not entries: they never decay or leave. For each one still worth keeping, record it as an entry, then remove the line by its note ID:\n" +
		rememberCommand(env, "", "N") + "\n" + forgetCommand(env, "re-recorded")
}

// conversionMessage tells the user, once, in one line, that the pass put
// a model-written file in the canonical form (how many loosely written
// lines it read, and how it read the first) and what else it corrected
// (a date far ahead, two patterns for one tag); "" when it did neither.
// One line, because the interface shows a SessionStart's systemMessage
// whole (e2e/TestMeasureStartAndPromptOutputsInTUI); the file as it was
// stays in the backup for the user to compare.
func conversionMessage(env Env, warnings []memfile.Warning, rep memfile.Report, f *memfile.File) string {
	var how []string
	for _, w := range warnings {
		if w.Converted {
			how = append(how, w.String())
		}
	}
	if len(how) == 0 && len(rep.Converted) == 0 {
		return ""
	}
	names := env.Store.Names()
	var parts []string
	if len(how) > 0 {
		read := "1 line written loosely was read"
		if len(how) > 1 {
			read = fmt.Sprintf("%d lines written loosely were read", len(how))
		}
		parts = append(parts, fmt.Sprintf("BIMRI converted %s to its canonical format, with IDs: %s, the first: %s", names.Memory, read, how[0]))
	}
	for i, c := range rep.Converted {
		if i == 2 {
			parts = append(parts, fmt.Sprintf("and %d more corrections", len(rep.Converted)-i))
			break
		}
		parts = append(parts, c)
	}
	if len(how) == 0 {
		parts[0] = "BIMRI corrected " + names.Memory + ": " + parts[0]
	}
	if hasUnread(f) {
		parts = append(parts, "some lines could not be read and are kept as they were")
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(" (the file as it was is in %s until the next update).", names.Backup)
}

// nudgeReason is the Stop hook's nudge: record before stopping. Claude
// Code 2.1.332 shows the user a Stop's additionalContext whole ("Stop hook
// says: ...", measured by e2e/TestMeasureHookOutputsInTUI), so it is one
// line: the exact command, and the importance in a few words (the
// session-start instructions hold the guide).
func nudgeReason(env Env) string {
	return "BIMRI: this session did real work and recorded nothing since; before you stop, record one entry (N: importance 1-5 as the memory instructions say, 2 if little happened): " +
		rememberCommand(env, "", "N")
}

// updatedMessage is what the user sees after a pass: the entries the
// agent recorded since the user was last told, what the pass changed, and
// the store's notice; "" when nothing changed.
func updatedMessage(recorded int, rep memfile.Report, notice string) string {
	var parts []string
	switch {
	case recorded == 1:
		parts = append(parts, "1 entry recorded")
	case recorded > 1:
		parts = append(parts, fmt.Sprintf("%d entries recorded", recorded))
	}
	if s := rep.Summary(); s != "" {
		parts = append(parts, s)
	}
	msg := ""
	if len(parts) > 0 {
		msg = "BIMRI updated: " + strings.Join(parts, "; ")
	}
	switch {
	case notice == "":
		return msg
	case msg == "":
		return notice
	}
	return msg + ". " + notice
}

// failedMessage tells the user that the agent's remember call did not
// record, and what to do about it. For a denial that is one piece of
// advice, the one install and doctor give (wiring.TrustAdvice); where
// the agent has the plugin's MCP tools, whose hooks install must not
// wire a second time, the one rule to add. The entries the agent meant
// are recorded for it at the session's end (fallbackEntries).
func failedMessage(env Env, t transcript.Summary) string {
	kept := "this session is kept as an automatic summary"
	if len(t.Denied) > 0 {
		kept = fmt.Sprintf("bimri-hook records the entry the agent meant at the session's end, tagged %s", memfile.DeniedTag)
		if len(t.Denied) > 1 {
			kept = fmt.Sprintf("bimri-hook records the %d entries the agent meant at the session's end, tagged %s", len(t.Denied), memfile.DeniedTag)
		}
	}
	if env.Tools.On {
		tool := env.Tools.Prefix + "remember"
		if t.RememberDenied {
			return fmt.Sprintf("BIMRI: Claude Code denied the agent's call of %s (%s); %s. To allow it, add %q to \"permissions\".\"allow\" in ~/.claude/settings.json.", tool, t.RememberError, kept, tool)
		}
		return fmt.Sprintf("BIMRI: the agent's call of %s failed (%s); %s.", tool, t.RememberError, kept)
	}
	command := wiring.Command{Binary: env.Binary}
	if t.RememberDenied {
		return fmt.Sprintf("BIMRI: Claude Code denied the agent's %s (%s); %s. To let it record: %s (`%s doctor` checks).",
			command.Remember(), t.RememberError, kept, wiring.TrustAdvice(command), wiring.ShellWord(env.Binary))
	}
	return fmt.Sprintf("BIMRI: the agent's %s failed (%s); %s. `%s doctor` says why.",
		command.Remember(), t.RememberError, kept, wiring.ShellWord(env.Binary))
}

// quotedList is items quoted, joined by commas and a last "and".
func quotedList(items []string) string {
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = strconv.Quote(it)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// approvalReason is why PreToolUse allowed a call: the client may show it.
const approvalReason = "bimri-hook's own memory command, which its hooks taught the agent"

// compactInstructions steer the compaction summary (PreCompact stdout).
const compactInstructions = `When summarising, keep every decision made and why, the open tasks and next steps, preferences the user stated, and anything recorded with bimri-hook remember. The BIMRI memory (bimri.md) is injected again after compaction, so do not copy it into the summary.`

// busyMessage is said when the lock could not be had in time;
// busyMaintenanceMessage when that happens to a maintenance request.
const (
	busyMessage            = "BIMRI skipped this update: another session held the memory file; it will catch up next time"
	busyMaintenanceMessage = busyMessage + "; ask again in a moment."
)

// configErrorNotice heads the memory SessionStart shows when the config
// does not load.
func configErrorNotice(err error) string {
	return fmt.Sprintf("bimri-hook could not load its config (%v); this is the memory as it stands, shown with the default settings, and nothing is updated until the config is fixed", err)
}

// updateFailedNotice heads the memory SessionStart shows when it could not
// update the file (read-only, say), but could read it.
func updateFailedNotice(memory string, err error) string {
	return fmt.Sprintf("bimri-hook could not update %s (%v); this is the memory as it stands", memory, err)
}

// checkpointPrefix marks the entry PreCompact writes itself.
const checkpointPrefix = "Checkpoint before compaction: "

func first(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// recalledLine is one recalled item, with its ID, date, importance and
// where it came from (the archive; bimri.md, marked when this workspace's
// sessions did not record it: foreign), so the model can weigh it and
// act on it. An archived item is called worth reviving, with how often
// it was recalled, when worth says so and it was not superseded.
func recalledLine(it recall.Item, worth recall.Strength, foreign bool) string {
	// Without fmt: Select measures a line for every hit it weighs, and
	// fmt's formatting was most of that.
	var b strings.Builder
	b.Grow(len(it.Text) + len(it.Reason) + 120)
	b.WriteString("- ")
	if it.Pattern {
		b.WriteString("pattern")
	} else {
		b.WriteString(it.Date.Format(time.DateOnly))
		b.WriteString(" imp ")
		b.WriteString(strconv.Itoa(it.Importance))
	}
	if len(it.Tags) > 0 {
		b.WriteString(" [")
		b.WriteString(strings.Join(it.Tags, ","))
		b.WriteString("]")
	}
	b.WriteString(": ")
	b.WriteString(memfile.Inert(it.Text))
	b.WriteString(" (id ")
	b.WriteString(it.ID)
	b.WriteString("; ")
	switch {
	case it.ArchivedOn.IsZero():
		b.WriteString("in bimri.md")
		if foreign {
			b.WriteString(" " + memfile.ForeignMark)
		}
		b.WriteString(", left out of the session-start view for space")
		writePossibly(&b, it)
		b.WriteString(")")
	default:
		b.WriteString("archived ")
		b.WriteString(it.ArchivedOn.Format(time.DateOnly))
		b.WriteString(": ")
		b.WriteString(memfile.Inert(it.Reason))
		replaced := superseded(it)
		if replaced {
			b.WriteString(", so it no longer holds")
			if it.Current != "" {
				b.WriteString("; what holds now: ")
				b.WriteString(memfile.Inert(it.Current))
			}
		}
		writePossibly(&b, it)
		if worth.Worth() && !replaced && !it.Possibly {
			b.WriteString("; recalled for ")
			b.WriteString(strconv.Itoa(worth.Prompts))
			b.WriteString(" different prompts in ")
			b.WriteString(strconv.Itoa(worth.Sessions))
			b.WriteString(" sessions, worth reviving")
		}
		b.WriteString(")")
	}
	return b.String()
}

// writePossibly marks an item that a newer entry looks like it
// supersedes, as the view does (the agent was asked at record time and
// has not answered), with that entry.
func writePossibly(b *strings.Builder, it recall.Item) {
	if it.Possibly {
		b.WriteString("; possibly superseded by a newer entry, which may hold now: ")
		b.WriteString(memfile.Inert(it.Current))
	}
}

// superseded says whether an archived item left as superseded by a newer
// entry: it no longer holds, and is never worth reviving.
func superseded(it recall.Item) bool {
	return !it.ArchivedOn.IsZero() && strings.HasPrefix(it.Reason, memfile.SupersededPrefix)
}

// recallContext is what UserPromptSubmit adds for recalled items; named
// are the few the answer calls worth reviving, and foreign says which
// items of bimri.md were not recorded here.
func recallContext(env Env, hits []recall.Hit, named map[string]recall.Strength, foreign func(recall.Item) bool) string {
	var lines strings.Builder
	archived, marked := false, false
	for _, h := range hits {
		f := foreign(h.Item)
		lines.WriteString(recalledLine(h.Item, named[h.Item.ID], f) + "\n")
		archived = archived || !h.Item.ArchivedOn.IsZero()
		marked = marked || f
	}
	var b strings.Builder
	b.WriteString("## Recalled from memory for this prompt (bimri-hook; not in the memory shown at session start)\n" + memfile.NotInstructions)
	if marked {
		b.WriteString(" " + memfile.ForeignLegend)
	}
	b.WriteString("\n" + lines.String())
	b.WriteString("Use these only where they bear on the request.")
	if archived {
		b.WriteString(" To bring an archived entry back into active memory, dated today: " + reviveCommand(env))
	}
	return b.String()
}

// subagentHeading starts the memory pack a subagent gets.
const subagentHeading = "## Project memory (bimri-hook, Tier 1: lasting facts and decisions of this workspace)"
