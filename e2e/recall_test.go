//go:build linux || darwin

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
)

// recallAnswer is the archived entry the recall scenario's prompt needs.
const recallAnswer = "Decided to use Redis for the session cache, not memcached."

// writeRecallArchive gives the workspace an archive: the answer among
// routine entries, as months of pruning leave it.
func writeRecallArchive(t *testing.T, workspace string) {
	t.Helper()
	day := func(s string) memfile.Entry {
		d, _ := memfile.ParseDate(s)
		return memfile.Entry{Date: d}
	}
	var items []memfile.Removal
	answer := day("2026-03-20")
	answer.ID, answer.Importance, answer.Tags, answer.Text = "7c1e0a42", 4, []string{"cache", "redis"}, recallAnswer
	items = append(items, memfile.Removal{Tier: 2, Entry: &answer, Reason: "weight 0.8 below threshold 1.5"})
	for i := range 20 {
		e := day("2026-02-01")
		e.Date = e.Date.AddDate(0, 0, i)
		e.Importance, e.Tags, e.Text = 1, []string{"lint"}, fmt.Sprintf("Ran the lint pass on module %d, no issues.", i)
		e.ID = memfile.EntryID(e.Date, e.Text)
		items = append(items, memfile.Removal{Tier: 2, Entry: &e, Reason: "weight 0.1 below threshold 1.5"})
	}
	archived, _ := memfile.ParseDate("2026-03-24")
	data := append([]byte(memfile.ArchiveHeading), memfile.RenderArchived(items, archived)...)
	if err := os.WriteFile(filepath.Join(workspace, memfile.ArchiveName), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRecallArchivedEntry: with the real client, a prompt whose answer is
// an archived entry gets that entry in the model request, after the
// user's prompt; the same prompt again in the same session does not, nor
// does "ok".
func TestRecallArchivedEntry(t *testing.T) {
	b := newBimriSandbox(t, func(s *Sandbox, r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		return TextReply("Noted.")
	})
	writeRecallArchive(t, b.Workspace)
	const prompt = "Which cache backend did we settle on for user sessions?"

	first := b.run(t, prompt)
	reqs := b.API.MainRequests()
	if len(reqs) == 0 {
		t.Fatalf("no model request:\n%s", b.API.Summary())
	}
	conv := reqs[0].ConversationText()
	at, recalled := strings.Index(conv, prompt), strings.Index(conv, recallAnswer)
	if at < 0 || recalled < 0 {
		t.Fatalf("the first request lacks the prompt (%d) or the recalled entry (%d):\n%s", at, recalled, conv)
	}
	if recalled < at {
		t.Errorf("the recalled entry comes before the user's prompt:\n%s", conv)
	}
	if !strings.Contains(conv, "id 7c1e0a42; archived 2026-03-24") {
		t.Errorf("the recall does not say the entry's ID and where it came from:\n%s", conv)
	}
	for _, ctx := range sessionStartContexts(reqs[0]) {
		if strings.Contains(ctx, recallAnswer) {
			t.Fatalf("the entry was already in the SessionStart view, so this proves nothing:\n%s", ctx)
		}
	}

	// The same prompt, then "ok", in the same session: nothing more.
	for _, p := range []string{prompt, "ok"} {
		b.API.Reset()
		b.run(t, p, "--resume", first.SessionID)
		reqs = b.API.MainRequests()
		if len(reqs) == 0 {
			t.Fatalf("no model request for %q:\n%s", p, b.API.Summary())
		}
		last := reqs[len(reqs)-1]
		if n := strings.Count(last.ConversationText(), recallAnswer); n != 1 {
			t.Errorf("after %q the conversation holds the recalled entry %d times, want once (from the first prompt):\n%s", p, n, last.ConversationText())
		}
	}
}
