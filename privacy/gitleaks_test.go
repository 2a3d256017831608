package privacy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/lucasjones/reggen"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// Every secret gitleaks' own detector finds, redact removes: the table
// and the way it is used agree with gitleaks. The texts are made from
// each rule's regexp (as gitleaks' tests make theirs), alone and in the
// places a person pastes them: a sentence, an assignment, a quote.
func TestRedactFindsWhatGitleaksFinds(t *testing.T) {
	slowtest.Gate(t) // every gitleaks rule's examples, through both detectors
	cfg := gitleaksConfig(t)
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = 0 // bimri-hook does not decode base64 or hex
	contexts := []string{"%s", "the key is %s\n", "export TOKEN=%s\n", `{"value": "%s"}`, "(%s) in the log"}
	found, samples := 0, 0
	for _, r := range gitleaksRules {
		g, err := reggen.NewGenerator(r.regex)
		if err != nil {
			t.Fatalf("%s: %v", r.id, err)
		}
		for n := range 6 {
			g.SetSeed(int64(n + 1))
			sample := g.Generate(12)
			for _, form := range contexts {
				text := fmt.Sprintf(form, sample)
				samples++
				findings := d.DetectString(text)
				if len(findings) == 0 {
					continue
				}
				found++
				got := redact(text)
				for _, f := range findings {
					if strings.Contains(got, f.Secret) {
						t.Errorf("gitleaks rule %s finds %q in %q, and Redact leaves it: %q", f.RuleID, f.Secret, text, got)
					}
				}
			}
		}
	}
	// Most samples are secrets in gitleaks' eyes (some fail a rule's
	// entropy or allowlist); too few would mean the test tests nothing.
	if found < samples/2 {
		t.Fatalf("gitleaks found secrets in only %d of %d samples", found, samples)
	}
	t.Logf("%d of %d samples held a secret gitleaks finds; Redact removed every one", found, samples)
}

// The rules most texts reach (their keywords are ordinary words) are
// tried only where a keyword stands, and the generic ones only where an
// assignment follows it: a change of gitleaks' patterns that undid that
// would make every hook that stores text slower, silently.
func TestCommonRulesAreAnchored(t *testing.T) {
	gated := map[string]bool{"generic-api-key": true}
	for _, id := range []string{"generic-api-key", "vault-service-token", "jwt", "twilio-api-key"} {
		i := slices.IndexFunc(gitleaksRules, func(r gitleaksRule) bool { return r.id == id })
		if i < 0 {
			t.Fatalf("gitleaks has no rule %s", id)
		}
		p := compilePattern(gitleaksRules[i].regex, gitleaksRules[i].keywords)
		if p.at == nil {
			t.Errorf("%s is not anchored at its keywords", id)
		}
		if gated[id] && p.gate == nil {
			t.Errorf("%s has no gate", id)
		}
	}
	for _, r := range namedRules {
		if r.expr != "" && r.pat().at == nil {
			t.Errorf("named rule %q is not anchored at its keywords", r.name)
		}
	}
}

// Trying a pattern only where its keywords stand (and its gate lets it)
// finds every secret that running the whole pattern over the text finds.
func FuzzAnchoredFindsWhatTheWholePatternFinds(f *testing.F) {
	for _, r := range gitleaksRules {
		if g, err := reggen.NewGenerator(r.regex); err == nil {
			g.SetSeed(1)
			f.Add("see " + g.Generate(8) + ", then")
		}
	}
	f.Add("the token budget is 10,000 characters; api_key = 'abcdefghij0123456789'")
	f.Fuzz(func(t *testing.T, s string) {
		hits := keywordHits(s)
		forEachRule(hits, 0, len(gitleaksRules), func(i int, at []int) {
			r := &gitleaksRules[i]
			p := compiledRules()[i].get(r).pat
			if p.at == nil {
				return
			}
			var got []span
			p.each(s, at, func(m []int) { got = append(got, span{m[0], m[1]}) })
			for _, m := range regexp.MustCompile(r.regex).FindAllStringSubmatchIndex(s, -1) {
				if !slices.ContainsFunc(got, func(g span) bool { return g.start <= m[1] && g.end == m[1] }) {
					t.Fatalf("rule %s: the whole pattern matches %q in %q; anchored tries found %v", r.id, s[m[0]:m[1]], s, got)
				}
			}
		})
	})
}
