package hooks

import (
	"os"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/record"
)

// A key given as a tag or a keyword is redacted in its own letters,
// each tag and keyword cleaned on its own before it is lower-cased
// (issue 34, item 9): a tag list cleaned as one comma-joined string kept
// a Google API key before its comma, then lower-cased it out of every
// rule's reach. A private span may still hold a comma.
func TestKeyGivenAsATagIsNotStored(t *testing.T) {
	env, _ := recordEnv(t)
	key := "AIza" + strings.Repeat("FAKEk3y_Zq9", 4)[:35] // fakes, in the formats
	alibaba := "LTAI" + "FAKEk3yZq9w2Xe7Rt5Yu"
	d, err := record.Remember(env.Store, env.Today, env.Config, record.Request{
		Text: "Deploys go through the staging project first.", Importance: 3,
		Tags:     "deploy," + key + "," + alibaba + ",gcp,<private>client,acme</private>",
		Keywords: []string{"staging," + key},
	}, record.CLINames)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(env.Store.Path(env.Store.Names().Memory))
	if err != nil {
		t.Fatal(err)
	}
	stored := strings.ToLower(strings.Join(append(append([]string{string(md)}, d.Entry.Tags...), d.Entry.Keywords...), "\n"))
	for _, leak := range []string{strings.ToLower(key[:20]), strings.ToLower(alibaba[:16]), "acme", "client"} {
		if strings.Contains(stored, leak) {
			t.Errorf("%q was stored: tags %q, keywords %q", leak, d.Entry.Tags, d.Entry.Keywords)
		}
	}
	for _, want := range []string{"deploy", "gcp"} {
		if !strings.Contains(strings.Join(d.Entry.Tags, ","), want) {
			t.Errorf("tag %q lost: %q", want, d.Entry.Tags)
		}
	}
}
