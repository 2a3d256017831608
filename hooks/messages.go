package hooks

// Every sentence the hooks say to the model or the user, in one voice (the
// view is memfile's, the store's repairs the store's).

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
	"github.com/bimri/bimri-hook/wiring"
)

// The agent changes memory with a shell command, or with bimri-hook's MCP
// tools when it has them (env.Tools); a command's start comes from wiring,
// which writes the permission rule that must match it.

// call is the agent's call of tool: with args when it has the MCP tools,
// else the subcommand on this workspace, then cli.
func call(env Env, tool, args, cli string) string {
	return inspect.Pick(env.Tools.On, "`"+env.Tools.Prefix+tool+"` with {"+args+"}", command(env, tool, cli))
}

// command is the subcommand sub on this workspace, then rest (remember's
// is what install's permission rule covers).
func command(env Env, sub, rest string) string {
	return wiring.Command{Binary: env.Binary}.Sub(sub) + " --dir " + wiring.ShellWord(env.Store.Root()) + " " + rest
}

// rememberCommand is how the agent records; "--" lets a summary start with a dash.
func rememberCommand(env Env, tier, importance string) string {
	args, flag := `"text": "One-line summary of what happened and the outcome.", "importance": `+importance+`, "tags": ["tag1", "tag2"], "keywords": ["word1", "word2"]`, ""
	if tier != "" {
		args, flag = args+`, "tier": `+tier, "--tier "+tier+" "
	}
	return call(env, "remember", args, flag+"--importance "+importance+` --tags tag1,tag2 --keywords word1,word2 -- "One-line summary of what happened and the outcome."`)
}

// idsCommand is remember with field, the entries ids (nil: placeholders),
// and text: a consolidation ("replaces") or a supersession.
func idsCommand(env Env, field string, ids []string, text string) string {
	tool, cli := `"ID", "ID", ...`, "ID,ID,..."
	if field == "supersedes" {
		tool, cli = `"ID"`, "ID"
	}
	if ids != nil {
		tool, cli = `"`+strings.Join(ids, `", "`)+`"`, strings.Join(ids, ",")
	}
	return call(env, "remember", `"`+field+`": [`+tool+`], "text": "`+text+`"`, "--"+field+" "+cli+` -- "`+text+`"`)
}

func patternCommand(env Env, tags []string, sentence string) string {
	return call(env, "remember", `"tier": 3, "tags": ["`+strings.Join(tags, `", "`)+`"], "text": "`+sentence+`"`,
		"--tier 3 --tags "+strings.Join(tags, ",")+` -- "`+sentence+`"`)
}

func forgetCommand(env Env, reason string) string {
	if reason != "" {
		return call(env, "forget", `"id": "NOTE-ID", "reason": "`+reason+`"`, "--reason "+reason+" NOTE-ID")
	}
	return call(env, "forget", `"id": "ID"`, "ID")
}

func searchCommand(env Env) string {
	return inspect.Pick(env.Tools.On, "call "+call(env, "recall", `"query": "WORDS"`, ""), "run: "+command(env, "search", "WORDS"))
}

// adviceText asks the agent, with the commands, for what only it can
// judge; "" for nothing.
func adviceText(env Env, f *memfile.File, a memfile.Advice, name string) string {
	var b strings.Builder
	if len(a.Consolidate) > 0 {
		fmt.Fprintf(&b, "- Tier 2 is at ~%d of its %d tokens. The oldest related entries (tag %s) are %s. If they tell one story, replace them with one summary (it keeps their highest importance, all their tags and the newest date; the originals go to the archive):\n  %s\n",
			a.Tier2, a.Budget, a.ConsolidateTag, strings.Join(a.Consolidate, ", "),
			idsCommand(env, "replaces", a.Consolidate, "One line saying what these entries say together."))
	}
	if len(a.Decisions) > 0 {
		fmt.Fprintf(&b, "- What lasts (Tier 1 and the importance-5 decisions) takes %d of the %d characters it has at session start, so not every decision will be shown much longer. The oldest related ones (tag %s) are %s. Replace them with one compact summary that keeps each decision in a few words and drops the story around it (at most %d characters; it stays importance 5, and the originals go to the archive):\n  %s\n",
			a.Lasting, a.Room, a.DecisionsTag, strings.Join(a.Decisions, ", "), memfile.MaxTextRunes,
			idsCommand(env, "replaces", a.Decisions, "Tag decisions: first in a few words; second; ..."))
	}
	if a.Promote != "" {
		if e, _ := f.Find(a.Promote); e != nil {
			fmt.Fprintf(&b, "- Decision %s (importance 5, %s) has lasted: %q If it still holds, move it to Tier 1, where it never decays:\n  %s\n",
				e.ID, e.Date.Format("2006-01-02"), memfile.Inert(e.Text), call(env, "remember", `"promote": "`+e.ID+`"`, "--promote "+e.ID))
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

// instructions follow the memory at SessionStart; examples anchor the
// importance scores better than definitions.
func instructions(env Env) string {
	return `## How to use this memory (bimri-hook)
The memory above persists across sessions. bimri-hook keeps it (backups, weights, pruning, patterns); your part is to record what matters. When you finish a task, make a decision, or learn a preference or constraint, record one entry with this ` + inspect.Pick(env.Tools.On, "tool call", "command") + ` (replace N, the tags, the text, and the keywords with two or three words a later question would use that the text does not):
` + rememberCommand(env, "", "N") + `
Importance, by example:
- 5 foundational, changes how every future session should work: "This project is a CLI tool for generating invoice PDFs." (add ` + tierOne(env) + `)
- 4 significant deliverable or key decision: "Migrated database layer from SQLite to PostgreSQL."
- 3 notable, useful for upcoming sessions: "Added unit tests for the auth module, 94% coverage."
- 2 minor, short-lived: "Fixed a typo in the config loader."
- 1 transient: "Ran lint pass, no issues."
When in doubt, record it: low-importance entries fade on their own. Skip what Claude Code's auto memory already keeps (build commands, file paths). Never record secrets. Do not edit bimri.md by hand.
- When an entry replaces an older one (a choice reversed, a deadline moved), record it as superseding it; the old one goes to the archive, marked: ` + idsCommand(env, "supersedes", nil, "What holds now.") + `
- Forget an entry that is wrong or outdated: ` + forgetCommand(env, "") + `
- Consolidate entries that tell one story into one summary: ` + idsCommand(env, "replaces", nil, "Summary.") + `
- Write a pattern, a habit or rule seen across entries: ` + patternCommand(env, []string{"tag1"}, "The insight.")
}

func tierOne(env Env) string { return inspect.Pick(env.Tools.On, `"tier": 1`, "--tier 1") }

// intake asks for the protocol's orientation questions in a new
// workspace, but not what the user's global memory knows.
func intake(env Env) string {
	var b strings.Builder
	b.WriteString(`## New workspace: intake
This workspace's memory is new. Before other work, ask the user 3-5 quick orientation questions: what this project is for, their primary focus, how they like to work together, and any constraints. If they want to skip and get to work, respect that and record what you learn as you go. Record each answer in Tier 1 at importance 5:
`)
	b.WriteString(rememberCommand(env, "1", "5"))
	if env.Global == nil {
		return b.String()
	}
	for i, e := range append(env.Global.Entries(1), env.Global.Entries(2)...) {
		if i == 0 {
			b.WriteString("\nAlready known from the user's global memory, so do not ask again:")
		}
		b.WriteString("\n- " + memfile.Inert(e.Text))
	}
	return b.String()
}

// maxBriefList and maxBriefGroups keep a brief from taking the view's
// room; each deep pass brings up the next ones.
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
	if review := deep.ReviewTier1; len(review) > 0 {
		more := inspect.Pick(len(review) > maxBriefList, fmt.Sprintf(" and %d more", len(review)-maxBriefList), "")
		review = review[:min(len(review), maxBriefList)]
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

// Maintain is `bimri-hook maintain`: the session-end pass now, without
// counting a session, deep if asked, reported as the hook reports one
// asked for in a prompt; dryRun changes nothing.
func Maintain(w io.Writer, env Env, deep, dryRun bool) error {
	opt := memfile.Options{Deep: deep}
	if deep {
		opt.ArchivedEntries = env.Store.ArchivedEntries()
	}
	if dryRun {
		read, err := env.Store.Read()
		if err != nil {
			return err
		}
		_, rep := memfile.Maintain(read.File, env.Today, env.Config, opt)
		_, err = fmt.Fprintf(w, "dry run: nothing written; the pass would do this\n%s\n", maintenanceReport(rep, env, read.File))
		return err
	}
	var text string
	res, err := env.Store.Update(func(tx *store.Tx) error {
		text = maintenanceReport(tx.Maintain(env.Today, env.Config, opt), env, tx.File)
		return nil
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, strings.TrimRight("maintenance done\n"+text+"\n"+res.Notice, "\n"))
	return err
}

// maintenanceReport is what a pass did and, after deep maintenance, what
// needs the agent's judgment.
func maintenanceReport(rep memfile.Report, env Env, f *memfile.File) string {
	var b strings.Builder
	deep := cmp.Or(rep.Deep, &memfile.DeepReport{})
	fmt.Fprintf(&b, "- Archived: %d item(s). Merged duplicate groups: %d. Tags dropped: %d.\n", len(rep.Removed), len(deep.Merged), len(deep.DroppedTags))
	for _, a := range rep.Removed { // a pass never takes out a note
		id, text := a.Item()
		fmt.Fprintf(&b, "  - %s: %s (%s)\n", id, memfile.Inert(text), a.Reason)
	}
	if s := rep.Summary(); s != "" {
		fmt.Fprintf(&b, "- Changes: %s.\n", s)
	}
	fmt.Fprintf(&b, "- Tokens: Tier 1 ~%d/%d, Tier 2 ~%d/%d, Tier 3 ~%d/%d, total ~%d.\n",
		rep.Tokens.Tiers[0], rep.Budgets[0], rep.Tokens.Tiers[1], rep.Budgets[1], rep.Tokens.Tiers[2], rep.Budgets[2], rep.Tokens.Total)
	for _, w := range rep.Warnings {
		fmt.Fprintf(&b, "- Warning: %s\n", w)
	}
	if rep.Deep == nil {
		if rep.DeepDue {
			b.WriteString("- Deep maintenance is due (maintain --deep).\n")
		}
		return strings.TrimRight(b.String(), "\n")
	}
	a, name := memfile.Advise(f, env.Today, env.Config), ""
	if len(a.Unnamed) > 0 {
		name = a.Unnamed[0]
	}
	return b.String() + judgmentBrief(env, f.Header.Sessions, rep.Deep, adviceText(env, f, a, name))
}

func unreadInstructions(env Env) string {
	return "## Unread lines\nLines marked unread above are kept in " + env.Store.Names().Memory + " word for word, but they are not entries: they never decay or leave. For each one still worth keeping, record it as an entry, then remove the line by its note ID:\n" +
		rememberCommand(env, "", "N") + "\n" + forgetCommand(env, "re-recorded")
}

// conversionMessage tells the user, in one line, that the pass put a
// model-written file in canonical form and what else it corrected.
func conversionMessage(env Env, warnings []memfile.Warning, rep memfile.Report, f *memfile.File) string {
	var how []string
	for _, w := range warnings {
		if w.Converted {
			how = append(how, w.String())
		}
	}
	names := env.Store.Names()
	parts := slices.Clone(rep.Converted[:min(2, len(rep.Converted))])
	if len(rep.Converted) > 2 {
		parts = append(parts, fmt.Sprintf("and %d more corrections", len(rep.Converted)-2))
	}
	switch {
	case len(how) > 0:
		parts = slices.Insert(parts, 0, fmt.Sprintf("BIMRI converted %s to its canonical format, with IDs: %s written loosely %s read, the first: %s",
			names.Memory, inspect.Plural(len(how), "line", "lines"), inspect.Pick(len(how) == 1, "was", "were"), how[0]))
	case len(parts) == 0:
		return ""
	default:
		parts[0] = "BIMRI corrected " + names.Memory + ": " + parts[0]
	}
	if len(f.Unread()) > 0 {
		parts = append(parts, "some lines could not be read and are kept as they were")
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(" (the file as it was is in %s until the next update).", names.Backup)
}

func nudgeReason(env Env) string {
	return "BIMRI: this session did real work and recorded nothing since; before you stop, record one entry (N: importance 1-5 as the memory instructions say, 2 if little happened): " +
		rememberCommand(env, "", "N")
}

// updatedMessage is what the user sees after a pass; "" when nothing changed.
func updatedMessage(recorded int, rep memfile.Report, notice string) string {
	var parts []string
	if recorded > 0 {
		parts = append(parts, inspect.Plural(recorded, "entry", "entries")+" recorded")
	}
	if s := rep.Summary(); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return notice
	}
	msg := "BIMRI updated: " + strings.Join(parts, "; ")
	if notice != "" {
		msg += ". " + notice
	}
	return msg
}

// failedMessage tells the user the agent's remember call did not record,
// and what to do.
func failedMessage(env Env, t transcript.Summary) string {
	kept := "this session is kept as an automatic summary"
	if n := len(t.Denied); n > 0 {
		kept = fmt.Sprintf("bimri-hook records %s the agent meant at the session's end, tagged %s", inspect.Pick(n == 1, "the entry", fmt.Sprintf("the %d entries", n)), memfile.DeniedTag)
	}
	command, bin := wiring.Command{Binary: env.Binary}, wiring.ShellWord(env.Binary)
	call, allow, why := command.Remember(), fmt.Sprintf("To let it record: %s (`%s doctor` checks).", wiring.TrustAdvice(command), bin), " `"+bin+" doctor` says why."
	if tool := env.Tools.Prefix + "remember"; env.Tools.On {
		call, allow, why = "call of "+tool, fmt.Sprintf("To allow it, add %q to \"permissions\".\"allow\" in ~/.claude/settings.json.", tool), ""
	}
	if t.RememberDenied {
		return fmt.Sprintf("BIMRI: Claude Code denied the agent's %s (%s); %s. %s", call, t.RememberError, kept, allow)
	}
	return fmt.Sprintf("BIMRI: the agent's %s failed (%s); %s.%s", call, t.RememberError, kept, why)
}

// approvalReason is why PreToolUse allowed a call: the client may show it.
const approvalReason = "bimri-hook's own memory command, which its hooks taught the agent"

// compactInstructions steer the compaction summary (PreCompact stdout).
const compactInstructions = `When summarising, keep every decision made and why, the open tasks and next steps, preferences the user stated, and anything recorded with bimri-hook remember. The BIMRI memory (bimri.md) is injected again after compaction, so do not copy it into the summary.`

// busyMessage: the lock could not be had in time.
const (
	busyMessage            = "BIMRI skipped this update: another session held the memory file; it will catch up next time"
	busyMaintenanceMessage = busyMessage + "; ask again in a moment."
)

// standingNotice says why the memory shown is as it stands.
func standingNotice(env Env, err error) string {
	switch {
	case env.ConfigErr != nil:
		return fmt.Sprintf("bimri-hook could not load its config (%v); this is the memory as it stands, shown with the default settings, and nothing is updated until the config is fixed", err)
	case isBusy(err):
		return busyMessage
	}
	return fmt.Sprintf("bimri-hook could not update %s (%v); this is the memory as it stands", env.Store.Names().Memory, err)
}

// checkpointPrefix marks the entry PreCompact writes itself.
const checkpointPrefix = "Checkpoint before compaction: "

// recalledLine is a recalled item with what the model weighs it by; an
// archived one is called worth reviving when worth says so.
func recalledLine(it recall.Item, worth recall.Strength, foreign bool) string {
	head := inspect.Pick(it.Pattern, "pattern", it.Date.Format(time.DateOnly)+" imp "+strconv.Itoa(it.Importance))
	if len(it.Tags) > 0 {
		head += " [" + strings.Join(it.Tags, ",") + "]"
	}
	possibly := ""
	if it.Possibly { // not built for every line that Select measures
		possibly = "; possibly superseded by a newer entry, which may hold now: " + memfile.Inert(it.Current)
	}
	line := "- " + head + ": " + memfile.Inert(it.Text) + " (id " + it.ID + "; "
	if it.ArchivedOn.IsZero() {
		return line + "in bimri.md" + inspect.Pick(foreign, " "+memfile.ForeignMark, "") + ", left out of the session-start view for space" + possibly + ")"
	}
	// One string at the end, not one a part (see recallContext).
	replaced, holds, worthIt := superseded(it), "", ""
	if replaced {
		holds = ", so it no longer holds"
		if it.Current != "" {
			holds += "; what holds now: " + memfile.Inert(it.Current)
		}
	}
	if worth.Worth() && !replaced && !it.Possibly {
		worthIt = "; recalled for " + strconv.Itoa(worth.Prompts) + " different prompts in " + strconv.Itoa(worth.Sessions) + " sessions, worth reviving"
	}
	return line + "archived " + it.ArchivedOn.Format(time.DateOnly) + ": " + memfile.Inert(it.Reason) + holds + possibly + worthIt + ")"
}

func superseded(it recall.Item) bool {
	return !it.ArchivedOn.IsZero() && strings.HasPrefix(it.Reason, memfile.SupersededPrefix)
}

// recallContext is UserPromptSubmit's context for recalled items; named
// are those worth reviving, foreign those recorded elsewhere.
func recallContext(env Env, hits []recall.Hit, named map[string]recall.Strength, foreign func(recall.Item) bool) string {
	// Each string made once at its size: a buffer grown by doubling
	// touches a fresh page at each size.
	lines := make([]string, len(hits))
	archived, marked := false, false
	for i, h := range hits {
		f := foreign(h.Item)
		lines[i] = recalledLine(h.Item, named[h.Item.ID], f)
		archived = archived || !h.Item.ArchivedOn.IsZero()
		marked = marked || f
	}
	legend, revive := "", ""
	if marked {
		legend = " " + memfile.ForeignLegend
	}
	if archived {
		revive = " To bring an archived entry back into active memory, dated today: " + call(env, "revive", `"id": "ID"`, "ID")
	}
	return "## Recalled from memory for this prompt (bimri-hook; not in the memory shown at session start)\n" + memfile.NotInstructions + legend +
		"\n" + strings.Join(lines, "\n") + "\nUse these only where they bear on the request." + revive
}

// subagentHeading starts the memory pack a subagent gets.
const subagentHeading = "## Project memory (bimri-hook, Tier 1: lasting facts and decisions of this workspace)"
