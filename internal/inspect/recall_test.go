package inspect

import (
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// What Recall returns (the MCP server's recall) holds no secret, also
// when bimri.md itself does (an edit, a merge).
func TestRecallReturnsNoSecret(t *testing.T) {
	s, err := store.OpenStore(t.TempDir(), memfile.DefaultConfig(), store.StoreOptions{LockTimeout: time.Second, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	f := memfile.New(memfile.DefaultConfig())
	f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, memfile.Block{Entry: &memfile.Entry{ID: "aa000001", Importance: 3,
		Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "Staging deploy uses DB_PASS=Hunter5Hunter5 for the billing database."}})
	got, err := Recall(s, f, recall.Query{Text: "staging deploy billing database", Lexicon: true, MinShare: recall.DefaultMinShare}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("nothing recalled")
	}
	for _, r := range got {
		if strings.Contains(r.Text, "Hunter5Hunter5") {
			t.Errorf("Recall returned the secret: %q", r.Text)
		}
	}
}
