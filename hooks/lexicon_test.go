package hooks

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
)

// A prompt in other words recalls an archived entry through the
// lexicon, and recall_lexicon false turns that off: "Postgres" for
// "PostgreSQL", through the whole hook (index, ranking, the recalled
// line).
func TestRecallInOtherWords(t *testing.T) {
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	if _, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: truthDay, Tags: []string{"ui"}, Text: "Moved the settings page to the new layout."}); err != nil {
		t.Fatal(err)
	}
	env := truthWorkspace(t, f, cfg)
	old := &memfile.Entry{ID: "0a0b0c0d", Date: truthDay.AddDate(0, -6, 0), Importance: 4, Tags: []string{"reporting"}, Text: "Moved the reporting database from MySQL to PostgreSQL 16."}
	gone := []memfile.Removal{{Entry: old, Tier: 2, Reason: "weight 0.9 below threshold 1.5"}}
	for i := range 60 { // routine work, so that rare words weigh more
		gone = append(gone, memfile.Removal{Tier: 2, Reason: "weight 0.5 below threshold 1.5", Entry: &memfile.Entry{ID: fmt.Sprintf("%08x", i),
			Date: truthDay.AddDate(0, -6, i), Importance: 1, Tags: []string{"routine"}, Text: fmt.Sprintf("Ran the linter on module %d, all green.", i)}})
	}
	archive := env.Store.Path(env.Store.Names().Archive)
	if err := os.WriteFile(archive, memfile.RenderArchived(gone, truthDay.AddDate(0, -1, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	const prompt = "Which Postgres version does reporting run on?"
	if got := promptContext(t, env, "on", prompt); !strings.Contains(got, "(id 0a0b0c0d;") {
		t.Errorf("the lexicon's recall did not bring back the PostgreSQL entry:\n%s", got)
	}
	env.Settings.Recall.Lexicon = false
	if got := promptContext(t, env, "off", prompt); got != "" {
		t.Errorf("recall_lexicon false still recalls through the lexicon:\n%s", got)
	}
}
