package hooks

// Every sentence bimri-hook says to the model or the user is in this file,
// so the voice stays one voice and a change of wording is one edit.

import (
	"fmt"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/transcript"
	"github.com/bimri/bimri-hook/wiring"
)

// rememberCommand is the exact command the agent is told to run. Its start
// comes from wiring, which writes the permission rule that must match it;
// the "--" lets a summary start with a dash.
func rememberCommand(env Env, tier, importance string) string {
	return fmt.Sprintf("%s --dir %s %s--importance %s --tags tag1,tag2 -- \"One-line summary of what happened and the outcome.\"",
		wiring.Command{Binary: env.Binary}.Remember(), wiring.ShellWord(env.Store.Root), tier, importance)
}

// instructions follow the memory in the SessionStart context: how to
// record, and the protocol's importance guide with its example sentences,
// which anchor the scores better than definitions do.
func instructions(env Env) string {
	return `## How to use this memory (bimri-hook)
The memory above persists across sessions. bimri-hook keeps it (backups, weights, pruning, patterns); your part is to record what matters. When you finish a task, make a decision, or learn a preference or constraint, record one entry with this command (replace N, the tags and the text):
` + rememberCommand(env, "", "N") + `
Importance, by example:
- 5 foundational, changes how every future session should work: "This project is a CLI tool for generating invoice PDFs." (add --tier 1)
- 4 significant deliverable or key decision: "Migrated database layer from SQLite to PostgreSQL."
- 3 notable, useful for upcoming sessions: "Added unit tests for the auth module, 94% coverage."
- 2 minor, short-lived: "Fixed a typo in the config loader."
- 1 transient: "Ran lint pass, no issues."
When in doubt, record it: low-importance entries fade on their own. Skip what Claude Code's auto memory already keeps (build commands, file paths). Never record secrets. Do not edit bimri.md by hand.`
}

// intake asks for the protocol's orientation questions in a new workspace.
func intake(env Env, known []string) string {
	var b strings.Builder
	b.WriteString(`## New workspace: intake
This workspace's memory is new. Before other work, ask the user 3-5 quick orientation questions: what this project is for, their primary focus, how they like to work together, and any constraints. If they want to skip and get to work, respect that and record what you learn as you go. Record each answer in Tier 1 at importance 5:
`)
	b.WriteString(rememberCommand(env, "--tier 1 ", "5"))
	if len(known) > 0 {
		b.WriteString("\nAlready known from the user's global memory, so do not ask again:")
		for _, k := range known {
			b.WriteString("\n- " + k)
		}
	}
	return b.String()
}

// judgmentBrief is the part of deep maintenance only the agent can do.
func judgmentBrief(env Env, sessions int, deep *memfile.DeepReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Deep maintenance (session %d): your judgment is needed\n", sessions)
	b.WriteString("bimri-hook has merged exact duplicates, cleaned tags and recounted patterns. Briefly, before other work:\n")
	forget := fmt.Sprintf("%s forget --dir %s ID", wiring.ShellWord(env.Binary), wiring.ShellWord(env.Store.Root))
	if len(deep.ReviewTier1) > 0 {
		fmt.Fprintf(&b, "- Check each Tier 1 entry is still true (%s). Remove an outdated one with `%s` and record the corrected fact with remember --tier 1.\n", strings.Join(deep.ReviewTier1, ", "), forget)
	}
	for _, g := range deep.NearDuplicates {
		fmt.Fprintf(&b, "- These entries say nearly the same thing: %s. Record one merged entry, then forget the others.\n", strings.Join(g, ", "))
	}
	if len(deep.ReviewTier1) == 0 && len(deep.NearDuplicates) == 0 {
		b.WriteString("- Nothing needs review this time.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// maintenanceReport answers "run BIMRI maintenance".
func maintenanceReport(rep memfile.Report, env Env, sessions int) string {
	var b strings.Builder
	b.WriteString("BIMRI deep maintenance ran just now, at the user's request.\n")
	fmt.Fprintf(&b, "- Archived: %d item(s). Merged duplicate groups: %d. Tags dropped: %d.\n", len(rep.Archived), len(rep.Deep.Merged), len(rep.Deep.DroppedTags))
	for _, a := range rep.Archived {
		if a.Entry != nil {
			fmt.Fprintf(&b, "  - %s: %s (%s)\n", a.Entry.ID, a.Entry.Text, a.Reason)
		} else if a.Pattern != nil {
			fmt.Fprintf(&b, "  - %s: %s (%s)\n", a.Pattern.ID, a.Pattern.Text, a.Reason)
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
	b.WriteString(judgmentBrief(env, sessions, rep.Deep))
	b.WriteString("\nTell the user briefly what changed.")
	return b.String()
}

// nudgeReason is the Stop hook's one block: record before stopping.
func nudgeReason(env Env) string {
	return "BIMRI: this session did real work and has recorded nothing in memory since. Record one entry now, then finish:\n" +
		rememberCommand(env, "", "N") +
		"\nPick importance 1-5 as the memory instructions describe. If nothing much happened, record a one-line summary at importance 2 (importance 1 falls below the threshold at once and is archived)."
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
// record, and what to do about it. For a denial that is the exact
// permission rule: in the user's settings it counts everywhere; in the
// project's .claude/settings.json Claude Code applies it only in a
// workspace the user has trusted (measured, 2.1.328).
func failedMessage(env Env, t transcript.Summary) string {
	if t.RememberDenied {
		return fmt.Sprintf("BIMRI: Claude Code denied the agent's %q (%s), so this session is kept only as an automatic summary. To let it record, add %q to \"permissions\".\"allow\" in ~/.claude/settings.json (in the project's .claude/settings.json it counts only once you trust this workspace).",
			wiring.Command{Binary: env.Binary}.Remember(), t.RememberError, wiring.Command{Binary: env.Binary}.PermissionRule())
	}
	return fmt.Sprintf("BIMRI: the agent's %q failed (%s), so this session is kept only as an automatic summary. Run `%s doctor` to see why.",
		wiring.Command{Binary: env.Binary}.Remember(), t.RememberError, wiring.ShellWord(env.Binary))
}

// compactInstructions steer the compaction summary (PreCompact stdout).
const compactInstructions = `When summarising, keep every decision made and why, the open tasks and next steps, preferences the user stated, and anything recorded with bimri-hook remember. The BIMRI memory (bimri.md) is injected again after compaction, so do not copy it into the summary.`

// busyMessage is said when the lock could not be had in time.
const busyMessage = "BIMRI skipped this update: another session held the memory file; it will catch up next time"

// checkpointPrefix marks the entry PreCompact writes itself.
const checkpointPrefix = "Checkpoint before compaction: "
